import { UsageError } from "./command.ts";

/**
 * A parsed `--from`/`--to` value: one version for every namespace (`3`), or versions for some
 * namespaces (`auth=3,messenger=2`; namespaces not listed keep their default).
 */
export interface VersionOption {
  /** The option as typed, e.g. `--to`. */
  flag: string;
  /** The version of every namespace, when one number was given. */
  all?: number;
  /** Versions per namespace, when `namespace=N` pairs were given. */
  byNamespace: ReadonlyMap<string, number>;
}

const VERSION = /^\d{1,9}$/;
const PAIR = /^([a-z_][a-z0-9_]*)=(\d{1,9})$/;

/**
 * Parses `--from`/`--to`: a non-negative integer, or comma-separated `namespace=N` pairs.
 * Throws a {@link UsageError} (exit 2) for anything else.
 */
export function parseVersionOption(
  flag: string,
  value: string | boolean | undefined,
): VersionOption | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  if (VERSION.test(text)) return { flag, all: Number(text), byNamespace: new Map() };
  const byNamespace = new Map<string, number>();
  for (const part of text.split(",")) {
    const match = PAIR.exec(part.trim());
    if (!match) {
      throw new UsageError(
        `${flag} must be a version (a non-negative integer) or namespace=version pairs ` +
          `separated by commas, got "${text}"`,
      );
    }
    if (byNamespace.has(match[1])) {
      throw new UsageError(`${flag} names namespace "${match[1]}" twice`);
    }
    byNamespace.set(match[1], Number(match[2]));
  }
  return { flag, byNamespace };
}

/** The version an option gives a namespace, or `undefined` when it gives none. */
export function versionFor(
  option: VersionOption | undefined,
  namespace: string,
): number | undefined {
  if (option === undefined) return undefined;
  return option.all ?? option.byNamespace.get(namespace);
}

/** Throws a {@link UsageError} when an option names a namespace the files do not have. */
export function checkNamespacesExist(
  option: VersionOption | undefined,
  namespaces: readonly string[],
): void {
  for (const name of option?.byNamespace.keys() ?? []) {
    if (!namespaces.includes(name)) {
      throw new UsageError(
        `${option!.flag}: no namespace "${name}"; the namespaces are: ${namespaces.join(", ")}`,
      );
    }
  }
}
