// What every form and button shares: a client call's progress and error, and the error's line.
import { useState } from "react";
import type { AuthClientError, AuthResult } from "@app/fragment-cli/client";

/**
 * A client call's progress and error, for the form or button that started it: `run(call)` waits
 * for the call and resolves to its result; `error` is its error, `null` once one succeeds.
 */
export function useAction() {
  const [error, setError] = useState<AuthClientError | null>(null);
  const [pending, setPending] = useState(false);
  const run = async <T,>(call: Promise<AuthResult<T>>): Promise<AuthResult<T>> => {
    setPending(true);
    const result = await call;
    setPending(false);
    setError(result.error);
    return result;
  };
  return { run, error, pending };
}

/** An error's message, where the user acted. */
export function ErrorLine({ error }: { error: AuthClientError | null }) {
  return error ? <p role="alert" className="error">{error.message}</p> : null;
}
