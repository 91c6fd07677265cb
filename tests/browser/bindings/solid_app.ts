// The bindings' page, in Solid (solid-js/h: the test bundles plain TypeScript, no JSX).
import { createSignal } from "solid-js";
import h from "solid-js/h";
import { render } from "solid-js/web";
import {
  useActiveOrganization,
  useMe,
  useMutation,
  useOrganizations,
  useQuery,
} from "../../../src/client/solid/mod.ts";
import { auth, emailLine, exposeAddNote, notes } from "./setup.ts";

function Note(props: { id: string }) {
  const note = useQuery(notes, "GET /notes/:id", { params: { id: props.id } });
  return h("p", { id: "note" }, () => (note().loading ? "…" : note().data?.text ?? ""));
}

function App() {
  const me = useMe(auth);
  const active = useActiveOrganization(auth);
  const organizations = useOrganizations(auth);
  const add = useMutation(notes, "POST /notes");
  const [noteId, setNoteId] = createSignal<string | null>(null);
  exposeAddNote(async (text) => {
    const { data } = await add.mutate({ body: { text } });
    if (data) setNoteId(data.id);
  });
  return h(
    "main",
    {},
    h("p", { id: "email" }, () => emailLine(me())),
    h("p", { id: "active" }, () => active()?.organization.name ?? "none"),
    h("ul", { id: "orgs" }, () => organizations().map((e) => h("li", {}, e.organization.name))),
    h("p", { id: "adding" }, () => (add.state().loading ? "adding" : "idle")),
    () => {
      const id = noteId();
      return id ? h(Note, { id }) : null;
    },
  );
}

render(() => h(App, {}), document.getElementById("app")!);
