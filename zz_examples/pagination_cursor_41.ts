import { PaginationError } from "@app/fragment-cli/pagination";

function statusOf(error: unknown): number {
  return error instanceof PaginationError ? error.status : 500;
}
