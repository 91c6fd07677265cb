// The bindings' page, in Vue (render functions: the test bundles plain TypeScript).
import { createApp, defineComponent, h, type PropType, shallowRef } from "vue";
import {
  useActiveOrganization,
  useMe,
  useMutation,
  useOrganizations,
  useQuery,
} from "../../../src/client/vue/mod.ts";
import { auth, emailLine, exposeAddNote, notes } from "./setup.ts";

const Note = defineComponent({
  props: { id: { type: String as PropType<string>, required: true } },
  setup(props) {
    const note = useQuery(notes, "GET /notes/:id", { params: { id: props.id } });
    return () => h("p", { id: "note" }, note.value.loading ? "…" : note.value.data?.text ?? "");
  },
});

const App = defineComponent({
  setup() {
    const me = useMe(auth);
    const active = useActiveOrganization(auth);
    const organizations = useOrganizations(auth);
    const add = useMutation(notes, "POST /notes");
    const noteId = shallowRef<string | null>(null);
    exposeAddNote(async (text) => {
      const { data } = await add.mutate({ body: { text } });
      if (data) noteId.value = data.id;
    });
    return () =>
      h("main", [
        h("p", { id: "email" }, emailLine(me.value)),
        h("p", { id: "active" }, active.value?.organization.name ?? "none"),
        h(
          "ul",
          { id: "orgs" },
          organizations.value.map((e) => h("li", { key: e.organization.id }, e.organization.name)),
        ),
        h("p", { id: "adding" }, add.state.value.loading ? "adding" : "idle"),
        noteId.value ? h(Note, { id: noteId.value, key: noteId.value }) : null,
      ]);
  },
});

createApp(App).mount("#app");
