import { InvalidCursorError } from "@app/fragment-cli/pagination";

new InvalidCursorError("Cursor is malformed").code; // => "INVALID_CURSOR"
