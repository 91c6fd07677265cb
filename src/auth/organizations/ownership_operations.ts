/**
 * The operation that hands an organization's ownership over. Declarations only (see
 * `http/operation.ts`).
 *
 * @module
 */

import type { AuthActor } from "../actor.ts";
import type { AuthOrganizationRef } from "../api_inputs.ts";
import type { AuthOperation } from "../http/operation.ts";
import { type AuthTransferOwnershipBody, transferOwnershipBody } from "./bodies.ts";
import { organizationParams } from "./input.ts";
import { ownershipTransferResponse } from "./responses.ts";
import type { AuthOwnershipTransfer } from "./ownership_service.ts";

/**
 * `POST /organizations/:organizationId/transfer-ownership` (owners): the member gains `owner`,
 * the caller's roles become `organizations.previousOwnerRoles`, in one transaction.
 */
export const transferOwnership: AuthOperation<{
  method: "POST";
  path: "/organizations/:organizationId/transfer-ownership";
  params: AuthOrganizationRef;
  body: AuthTransferOwnershipBody;
  response: AuthOwnershipTransfer;
  errors:
    | "FORBIDDEN"
    | "TWO_FACTOR_REQUIRED"
    | "NOT_FOUND"
    | "ALREADY_OWNER"
    | "MEMBER_NOT_VERIFIED";
  api: (
    actor: AuthActor,
    input: AuthOrganizationRef & AuthTransferOwnershipBody,
  ) => Promise<AuthOwnershipTransfer>;
}> = {
  method: "POST",
  path: "/organizations/:organizationId/transfer-ownership",
  summary: "Hand ownership over to a verified member (owners)",
  guard: "signedIn",
  feature: "organizations",
  params: organizationParams,
  body: transferOwnershipBody,
  responses: { 200: ownershipTransferResponse },
  errors: {
    403: ["FORBIDDEN", "TWO_FACTOR_REQUIRED"],
    404: ["NOT_FOUND"],
    409: ["ALREADY_OWNER", "MEMBER_NOT_VERIFIED"],
  },
  call: (services, input, actor) => services.organizations.ownership.transfer(actor, input),
};
