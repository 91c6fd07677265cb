// Every answer schema of the auth module, from the concept folders that declare them, as one
// namespace for the tests that walk them all.
export * from "../../src/auth/account/responses.ts";
export * from "../../src/auth/me/me_response.ts";
export * from "../../src/auth/organizations/responses.ts";
export { signInResponse } from "../../src/auth/two_factor/two_factor_inputs.ts";
