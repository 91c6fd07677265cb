import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  createDocsSearch,
  MAX_SECTIONS_PER_PAGE,
  type SearchRecord,
} from "../../src/search/mod.ts";

function page(id: string, title: string): SearchRecord {
  return { id, page: id, type: "page", content: title, url: `/docs/${id}`, context: "" };
}

function text(pageId: string, n: number, content: string, context: string): SearchRecord {
  return {
    id: `${pageId}:${n}`,
    page: pageId,
    type: "text",
    content,
    url: `/docs/${pageId}#s${n}`,
    context,
  };
}

const records: SearchRecord[] = [
  page("invitations", "Invitations"),
  {
    id: "invitations#accepting",
    page: "invitations",
    type: "heading",
    content: "Accepting an invitation",
    url: "/docs/invitations#accepting",
    context: "Invitations",
  },
  text("invitations", 1, "Send the token with the action.", "Invitations › Accepting"),
  text("invitations", 2, "Tides turn twice a day.", "Invitations › Tides"),
  page("members", "Members"),
  text("members", 1, "A member may hold several roles; invitation tokens are hashed.", "Members"),
];

describe("createDocsSearch()", () => {
  const search = createDocsSearch(records);

  it("answers page hits followed by their sections, pages by their best hit", () => {
    assert.deepEqual(search.search("invitation").map((h) => h.id), [
      "invitations",
      "invitations#accepting",
      "members",
      "members:1",
    ]);
  });

  it("finds plurals and singulars alike", () => {
    assert.deepEqual(
      search.search("invitations").map((h) => h.id),
      search.search("invitation").map((h) => h.id),
    );
  });

  it("matches every word first, counting the headings above a block", () => {
    // "token" is in both pages; only the text under "Accepting" has "accepting" around it, and
    // the heading itself lacks "token".
    assert.deepEqual(search.search("accepting token").map((h) => h.id), [
      "invitations",
      "invitations:1",
    ]);
  });

  it("falls back to any word when no record has them all", () => {
    assert.deepEqual(search.search("roles quasar").map((h) => h.id), ["members", "members:1"]);
  });

  it("never lists a block found only through its headings", () => {
    assert.ok(!search.search("invitations").some((hit) => hit.id === "invitations:2"));
  });

  it("finds nothing for an empty query, stop words or unknown words", () => {
    assert.deepEqual(search.search(""), []);
    assert.deepEqual(search.search("the of"), []);
    assert.deepEqual(search.search("quasar"), []);
  });

  it(`lists at most ${MAX_SECTIONS_PER_PAGE} sections per page`, () => {
    const many = [
      page("big", "Big"),
      ...Array.from({ length: 12 }, (_, i) => text("big", i, `lantern number ${i}`, "Big")),
    ];
    const hits = createDocsSearch(many).search("lantern");
    assert.equal(hits.length, 1 + MAX_SECTIONS_PER_PAGE);
    assert.equal(hits[0].type, "page");
  });

  it("answers the search JSON shape: no internal fields, breadcrumbs only when present", () => {
    const nested = createDocsSearch([{ ...page("g/x", "X"), breadcrumbs: ["G"] }]);
    assert.deepEqual(nested.search("x"), [
      { id: "g/x", type: "page", content: "X", url: "/docs/g/x", breadcrumbs: ["G"] },
    ]);
  });
});
