// Where the SPA finds the auth module. Served by `fragment-cli serve examples/app.ts --static
// examples/spa` (= `deno task start`), the API is on the page's own origin. Hosted on another
// origin, put the API's absolute address here (e.g. "https://api.example.com/api/auth") and list
// this page's origin in the API's TRUSTED_ORIGINS (docs/getting-started.md).
export const API_BASE_URL = "/api/auth";
