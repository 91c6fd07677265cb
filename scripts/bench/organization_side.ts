/**
 * One side of the organizations comparison (ours or better-auth): how to start it, how to sign a
 * user up, how to seed users without a password round, and the HTTP request of each operation.
 *
 * @module
 */
import type { PlannedRequest } from "./load_spec.ts";
import type { ServerProcess } from "./processes.ts";
import type { BenchContext } from "./scenario.ts";

/** A signed-up user: its id and the headers that authenticate its requests. */
export interface SideUser {
  id: string;
  headers: Record<string, string>;
}

/** What scenario 2 needs of each side. */
export interface OrganizationSide {
  /** Shown in the table, e.g. `better-auth 1.7 organization plugin`. */
  name: string;
  start(context: BenchContext, databaseUrl: string): Promise<ServerProcess>;
  /** Signs a user up over HTTP. */
  signUp(server: ServerProcess, email: string): Promise<SideUser>;
  /** Inserts `count` users straight into the side's tables (no password hashing); their ids. */
  seedUsers(databaseUrl: string, prefix: string, count: number): Promise<string[]>;
  createOrganization(user: SideUser, name: string, slug: string): PlannedRequest;
  listOrganizations(user: SideUser): PlannedRequest;
  addMember(user: SideUser, organizationId: string, userId: string): PlannedRequest;
  getOrganization(user: SideUser, organizationId: string): PlannedRequest;
  /** The organization id in the JSON answer of {@link createOrganization}. */
  createdOrganizationId(answer: unknown): string;
  /** How many organizations the JSON answer of {@link listOrganizations} holds. */
  listedCount(answer: unknown): number;
}

/** Sends one planned request with fetch and returns the parsed JSON; throws unless 2xx. */
export async function send(server: ServerProcess, request: PlannedRequest): Promise<unknown> {
  const response = await fetch(server.origin + request.path, {
    method: request.method,
    headers: { "content-type": "application/json", ...request.headers },
    body: request.body,
  });
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`${request.method} ${request.path} answered ${response.status}: ${text}`);
  }
  return text === "" ? undefined : JSON.parse(text);
}
