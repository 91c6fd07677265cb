// The React example: the account and organizations journeys of the plain SPA (examples/spa/),
// written with `@app/fragment-cli/react`. Bundled into app.js by `deno task react:build`.
// Browser code: `deno check` reads it with the DOM's types.
/// <reference lib="dom" />
import { createRoot } from "react-dom/client";
import { App } from "./app.tsx";

createRoot(document.getElementById("root")!).render(<App />);
