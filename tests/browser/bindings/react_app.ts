// The bindings' page, in React (no JSX: the test bundles plain TypeScript).
import { createElement as h, useState } from "react";
import { createRoot } from "react-dom/client";
import {
  useActiveOrganization,
  useMe,
  useMutation,
  useOrganizations,
  useQuery,
} from "../../../src/client/react/mod.ts";
import { auth, emailLine, exposeAddNote, notes } from "./setup.ts";

function Note(props: { id: string }) {
  const { data, loading } = useQuery(notes, "GET /notes/:id", { params: { id: props.id } });
  return h("p", { id: "note" }, loading ? "…" : data?.text ?? "");
}

function App() {
  const me = useMe(auth);
  const active = useActiveOrganization(auth);
  const organizations = useOrganizations(auth);
  const add = useMutation(notes, "POST /notes");
  const [noteId, setNoteId] = useState<string | null>(null);
  exposeAddNote(async (text) => {
    const { data } = await add.mutate({ body: { text } });
    if (data) setNoteId(data.id);
  });
  return h(
    "main",
    null,
    h("p", { id: "email" }, emailLine(me)),
    h("p", { id: "active" }, active?.organization.name ?? "none"),
    h(
      "ul",
      { id: "orgs" },
      organizations.map((e) => h("li", { key: e.organization.id }, e.organization.name)),
    ),
    h("p", { id: "adding" }, add.loading ? "adding" : "idle"),
    noteId ? h(Note, { id: noteId }) : null,
  );
}

createRoot(document.getElementById("app")!).render(h(App));
