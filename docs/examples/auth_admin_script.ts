// An admin script that uses `authModule.api` with no HTTP (docs/auth.md, "Server-side API"):
// it creates an organization for an existing user and invites someone, with the same rules and
// events as the routes. Type-checked and run by tests/auth/admin_script_docs_example.test.ts.
import {
  auth,
  type AuthInvitation,
  type AuthOrganization,
  authSchema,
  migrate,
  type SqlAdapter,
} from "../../mod.ts";

/** What the script did. */
export interface Provisioned {
  organization: AuthOrganization;
  invitation: AuthInvitation;
  /** The invitation mails the `invitationCreated` handler sent (here: kept in a list). */
  mailed: string[];
}

export async function provisionTeam(
  database: SqlAdapter,
  ownerId: string,
  inviteeEmail: string,
): Promise<Provisioned> {
  await migrate(database, authSchema); // idempotent: `fragment-cli db migrate` does the same
  const mailed: string[] = [];
  const authModule = auth({
    database,
    organizations: {
      hooks: {
        // Runs after the invitation committed, with retries: send the mail here.
        invitationCreated: ({ invitation, organization }) => {
          mailed.push(`${invitation.email}: join ${organization.name} with ${invitation.token}`);
        },
      },
    },
  });
  try {
    // The actor: the existing user the organization is for. They become its owner.
    const owner = { userId: ownerId };
    const { organization } = await authModule.api.createOrganization(owner, {
      name: "Acme Research",
      metadata: { plan: "enterprise" },
    });
    // Invited as the owner: refused like over HTTP if they could not (403 FORBIDDEN), or if the
    // address already belongs to a member (409 ALREADY_MEMBER).
    const { invitation } = await authModule.api.createInvitation(owner, {
      organizationId: organization.id,
      email: inviteeEmail,
      roles: ["admin"],
    });
    // A script exits right away: deliver the events now instead of waiting for a worker.
    await authModule.api.hooks?.drain();
    return { organization, invitation, mailed };
  } finally {
    await authModule.close();
  }
}
