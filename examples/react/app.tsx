// The page: signed out, the sign-in form; signed in, the account's notices, the invitations for
// the user and the organizations. Every screen reads the store through the hooks, and every
// change goes through `auth.client`: the store reads `/me` again after it, so nothing here
// reloads anything by hand, and the other tabs follow.
import type { FormEvent } from "react";
import type { AuthMe } from "@app/fragment-cli/client";
import { useMe } from "@app/fragment-cli/react";
import { auth } from "./auth.ts";
import { ErrorLine, useAction } from "./action.tsx";
import { Organizations } from "./organizations.tsx";

export function App() {
  const { data: me, error, loading } = useMe(auth);
  const signOut = useAction();
  if (loading && !me) return <p>Loading…</p>;
  return (
    <>
      <header>
        <h1>fragment-cli · React</h1>
        {me && (
          <>
            <p>
              Signed in as <strong>{me.user.email}</strong>
            </p>
            <button type="button" onClick={() => signOut.run(auth.client.signOut())}>
              Sign out
            </button>
          </>
        )}
      </header>
      <main>
        <ErrorLine error={error ?? signOut.error} />
        {me ? <SignedIn me={me} /> : <SignIn />}
      </main>
    </>
  );
}

function SignIn() {
  const { run, error, pending } = useAction();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    const credentials = {
      email: String(fields.get("email")),
      password: String(fields.get("password")),
    };
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const signUp = submitter?.getAttribute("value") === "sign-up";
    run(signUp ? auth.client.signUp(credentials) : auth.client.signIn(credentials));
  };
  return (
    <section className="card" aria-labelledby="sign-in-title">
      <h2 id="sign-in-title">Sign in or create an account</h2>
      <form onSubmit={submit}>
        <label>
          Email <input name="email" type="email" autoComplete="username" required />
        </label>
        <label>
          Password{" "}
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <div className="buttons">
          <button type="submit" value="sign-in" disabled={pending}>Sign in</button>
          <button type="submit" value="sign-up" disabled={pending}>Sign up</button>
        </div>
      </form>
      <ErrorLine error={error} />
    </section>
  );
}

function SignedIn({ me }: { me: AuthMe }) {
  const resend = useAction();
  return (
    <>
      {!me.user.emailVerified && (
        <div className="card notice" role="status">
          <p>
            Verify your email: open the link sent to{" "}
            <strong>{me.user.email}</strong>. Invitations reach verified addresses only.
          </p>
          <button type="button" onClick={() => resend.run(auth.client.resendVerificationEmail())}>
            Resend verification email
          </button>
          <ErrorLine error={resend.error} />
        </div>
      )}
      {me.invitations.length > 0 && <MyInvitations me={me} />}
      <Organizations me={me} />
    </>
  );
}

function MyInvitations({ me }: { me: AuthMe }) {
  const { run, error } = useAction();
  return (
    <section className="card" aria-labelledby="my-invitations-title">
      <h2 id="my-invitations-title">Invitations for you</h2>
      <ul>
        {me.invitations.map(({ invitation, organization }) => (
          <li key={invitation.id}>
            {organization.name} invites you as {invitation.roles.join(", ")}
            <button
              type="button"
              onClick={() => run(auth.client.invitations.accept(invitation.id, {}))}
            >
              Accept
            </button>
            <button
              type="button"
              onClick={() => run(auth.client.invitations.reject(invitation.id, {}))}
            >
              Reject
            </button>
          </li>
        ))}
      </ul>
      <ErrorLine error={error} />
    </section>
  );
}
