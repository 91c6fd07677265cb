/**
 * The OpenTelemetry tracer of the package's own spans (hook runs, webhook requests). It comes from
 * `@opentelemetry/api`, which does nothing until the application registers an OpenTelemetry SDK:
 * then the spans go wherever that SDK exports them. `getTracer` returns a proxy that follows the
 * provider registered later, so taking it once at load time is enough.
 *
 * @module
 */

import { trace, type Tracer } from "@opentelemetry/api";
import { VERSION } from "../version.ts";

/** The instrumentation scope name of every span the package starts. */
export const TRACER_NAME = "fragment-cli";

/** The package's tracer (a no-op until an SDK is registered). */
export const tracer: Tracer = trace.getTracer(TRACER_NAME, VERSION);
