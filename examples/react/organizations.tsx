// The organizations: the user's list (switch the active one), a form to create one, and the
// active organization's members, pending invitations and invite form, each shown only when the
// member's permissions (the entry's `permissions`) allow it.
import { type FormEvent, useEffect, useState } from "react";
import type { AuthMe, AuthOrganizationEntry, AuthResult } from "@app/fragment-cli/client";
import { useActiveOrganization, useMe, useOrganizations } from "@app/fragment-cli/react";
import { auth } from "./auth.ts";
import { ErrorLine, useAction } from "./action.tsx";

export function Organizations({ me }: { me: AuthMe }) {
  const organizations = useOrganizations(auth);
  const active = useActiveOrganization(auth);
  const { run, error } = useAction();
  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    const slug = String(fields.get("slug")).trim();
    // The first organization becomes the active one (the module sets it when there is none).
    const { error } = await run(
      auth.client.organizations.create({ name: String(fields.get("name")), ...(slug && { slug }) }),
    );
    if (!error) form.reset();
  };
  return (
    <>
      <section className="card" aria-labelledby="organizations-title">
        <h2 id="organizations-title">Your organizations</h2>
        {organizations.length === 0 && <p>None yet: create one.</p>}
        <ul>
          {organizations.map(({ organization }) => (
            <li key={organization.id}>
              {organization.name} <span className="muted">· {organization.slug}</span>
              {organization.id === active?.organization.id
                ? <span className="badge">active</span>
                : (
                  <button
                    type="button"
                    aria-label={`Switch to ${organization.name}`}
                    onClick={() => run(auth.client.organizations.setActive(organization.id))}
                  >
                    Switch
                  </button>
                )}
            </li>
          ))}
        </ul>
        <form onSubmit={create}>
          <label>
            Name <input name="name" required maxLength={100} />
          </label>
          <label>
            Slug <input name="slug" pattern="[a-z0-9]+(-[a-z0-9]+)*" placeholder="optional" />
          </label>
          <button type="submit">Create organization</button>
        </form>
        <ErrorLine error={error} />
      </section>
      {active && <ActiveOrganization key={active.organization.id} entry={active} me={me} />}
    </>
  );
}

function ActiveOrganization({ entry, me }: { entry: AuthOrganizationEntry; me: AuthMe }) {
  const { organization, permissions } = entry;
  const may = (permission: string) => permissions.includes(permission);
  const members = useAuthRead(() => auth.client.members.list(organization.id));
  const invitations = useAuthRead(
    may("invitation:list") ? () => auth.client.invitations.list(organization.id) : null,
  );
  const { run, error } = useAction();
  const invite = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const email = String(new FormData(form).get("email"));
    const { error } = await run(auth.client.invitations.create(organization.id, { email }));
    if (!error) form.reset();
  };
  const pending = invitations?.data?.invitations.filter((i) => i.status === "pending") ?? [];
  return (
    <section className="card" aria-labelledby="active-title">
      <h2 id="active-title">Active: {organization.name}</h2>
      <h3 id="members-title">Members</h3>
      <ul aria-labelledby="members-title">
        {members?.data?.members.map((member) => (
          <li key={member.id}>
            {member.userId === me.user.id ? `${me.user.email} (you)` : member.userId}
            <span className="muted">{` · ${member.roles.join(", ")}`}</span>
          </li>
        ))}
      </ul>
      <ErrorLine error={members?.error ?? invitations?.error ?? null} />
      {may("invitation:list") && (
        <>
          <h3 id="invitations-title">Pending invitations</h3>
          <ul aria-labelledby="invitations-title">
            {pending.map((invitation) => (
              <li key={invitation.id}>
                {invitation.email}
                <span className="muted">{` · ${invitation.roles.join(", ")}`}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {may("invitation:create") && (
        <form onSubmit={invite} aria-label="Invite">
          <label>
            Email <input name="email" type="email" required />
          </label>
          <button type="submit">Invite</button>
        </form>
      )}
      <ErrorLine error={error} />
    </section>
  );
}

/**
 * The answer of `read` (`null` until it came, or without `read`), read again whenever `/me`
 * changes: the store reads `/me` after each change the user makes through `auth.client`, in this
 * tab or another, so the members and invitations follow an invitation sent, for one.
 */
function useAuthRead<T>(read: (() => Promise<AuthResult<T>>) | null): AuthResult<T> | null {
  const { data: me } = useMe(auth);
  const [result, setResult] = useState<AuthResult<T> | null>(null);
  useEffect(() => {
    let current = true;
    read?.().then((answer) => current && setResult(answer));
    return () => {
      current = false;
    };
  }, [me]);
  return result;
}
