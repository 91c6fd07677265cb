// The attack list of docs/security.md, replayed through HTTP against served modules: one file to
// point to. Each finding's attacks live in a module of its own under ./attacks/ (registered here
// by import, in the order of docs/security.md), and each fails if its fix is removed.
import { after } from "node:test";
import { closeSharedDatabase } from "./harness.ts";
import "./attacks/cursors.ts";
import "./attacks/origin.ts";
import "./attacks/cors.ts";
import "./attacks/rate_limits.ts";
import "./attacks/invitations.ts";
import "./attacks/membership.ts";
import "./attacks/teams.ts";

after(() => closeSharedDatabase());
