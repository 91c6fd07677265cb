/**
 * Errors of the migration runner. Each is a named class the CLI maps to one
 * line and an exit code; none leaves anything applied.
 *
 * @module
 */

/**
 * The database is not at the version the caller expected (`expectedFrom`), or
 * another migrator moved it first. Nothing was applied.
 *
 * @example
 * ```ts
 * import { MigrationConflictError } from "@app/fragment-cli/migrate";
 *
 * const error = new MigrationConflictError("auth", 2, 3);
 * error.message; // => 'Namespace "auth" is at version 3, expected version 2; nothing applied'
 * ```
 */
export class MigrationConflictError extends Error {
  /** The namespace concerned. */
  readonly namespace: string;
  /** The version the caller expected. */
  readonly expectedVersion: number;
  /** The version the database is at. */
  readonly databaseVersion: number;
  /**
   * Creates the error.
   *
   * @param namespace The namespace.
   * @param expectedVersion The version expected.
   * @param databaseVersion The version found.
   */
  constructor(namespace: string, expectedVersion: number, databaseVersion: number) {
    super(
      `Namespace "${namespace}" is at version ${databaseVersion}, expected version ${expectedVersion}; nothing applied`,
    );
    this.name = "MigrationConflictError";
    this.namespace = namespace;
    this.expectedVersion = expectedVersion;
    this.databaseVersion = databaseVersion;
  }
}

/**
 * An already-applied step differs from the code's step (its SQL fingerprint
 * changed): the history was edited, so fresh and upgraded databases would diverge.
 *
 * @example
 * ```ts
 * import { SchemaDriftError } from "@app/fragment-cli/migrate";
 *
 * new SchemaDriftError("auth", 2, 'addColumn "users"."name"').step; // => 2
 * ```
 */
export class SchemaDriftError extends Error {
  /** The namespace concerned. */
  readonly namespace: string;
  /** The first step whose applied SQL differs from the code. */
  readonly step: number;
  /**
   * Creates the error.
   *
   * @param namespace The namespace.
   * @param step The edited step's version.
   * @param description The step's description in the code.
   */
  constructor(namespace: string, step: number, description: string) {
    super(
      `Namespace "${namespace}": step ${step} (${description}) was changed after it was applied; ` +
        "schema steps are append-only, add a new step instead",
    );
    this.name = "SchemaDriftError";
    this.namespace = namespace;
    this.step = step;
  }
}

/**
 * The database has a newer version than the code knows (code rolled back, or
 * another deployment migrated further). Nothing was applied.
 *
 * @example
 * ```ts
 * import { DatabaseAheadError } from "@app/fragment-cli/migrate";
 *
 * new DatabaseAheadError("auth", 5, 3).message; // => 'Namespace "auth" is at version 5 but the code only knows versions up to 3'
 * ```
 */
export class DatabaseAheadError extends Error {
  /** The namespace concerned. */
  readonly namespace: string;
  /** The database's version. */
  readonly databaseVersion: number;
  /** The latest version in the code. */
  readonly codeVersion: number;
  /**
   * Creates the error.
   *
   * @param namespace The namespace.
   * @param databaseVersion The database's version.
   * @param codeVersion The code's latest version.
   */
  constructor(namespace: string, databaseVersion: number, codeVersion: number) {
    super(
      `Namespace "${namespace}" is at version ${databaseVersion} but the code only knows versions up to ${codeVersion}`,
    );
    this.name = "DatabaseAheadError";
    this.namespace = namespace;
    this.databaseVersion = databaseVersion;
    this.codeVersion = codeVersion;
  }
}

/**
 * The requested target version is invalid: below the current version (there
 * are no down migrations) or beyond the code's latest.
 *
 * @example
 * ```ts
 * import { MigrationTargetError } from "@app/fragment-cli/migrate";
 *
 * new MigrationTargetError("Cannot migrate \"auth\" down from 3 to 1").name; // => "MigrationTargetError"
 * ```
 */
export class MigrationTargetError extends Error {
  /**
   * Creates the error.
   *
   * @param message What is wrong with the target.
   */
  constructor(message: string) {
    super(message);
    this.name = "MigrationTargetError";
  }
}

/**
 * A statement of a step failed; the whole migration was rolled back. `cause`
 * is the database error (an `SqlError` with its SQLSTATE `code`).
 *
 * @example
 * ```ts
 * import { MigrationStepError } from "@app/fragment-cli/migrate";
 *
 * const error = new MigrationStepError("auth", 2, "sql", "SELEC 1", new Error("syntax error"));
 * error.step; // => 2
 * ```
 */
export class MigrationStepError extends Error {
  /** The namespace concerned. */
  readonly namespace: string;
  /** The failing step's version. */
  readonly step: number;
  /** The failing statement. */
  readonly statement: string;
  /**
   * Creates the error.
   *
   * @param namespace The namespace.
   * @param step The step's version.
   * @param description The step's description.
   * @param statement The failing statement.
   * @param cause The database error.
   */
  constructor(
    namespace: string,
    step: number,
    description: string,
    statement: string,
    cause: unknown,
  ) {
    super(
      `Namespace "${namespace}": step ${step} (${description}) failed, nothing applied: ${
        cause instanceof Error ? cause.message : String(cause)
      }`,
      { cause },
    );
    this.name = "MigrationStepError";
    this.namespace = namespace;
    this.step = step;
    this.statement = statement;
  }
}
