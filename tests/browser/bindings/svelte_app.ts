// The bindings' page, in Svelte: the component compiled by svelte/compiler when bundled.
import { mount } from "svelte";
// @ts-ignore: a .svelte file, compiled by the bundler (scripts/browser_bundle.ts).
import App from "./App.svelte";

mount(App, { target: document.getElementById("app")! });
