// The client address: the shapes runtimes pass as fetch's second argument, the trustProxy header,
// address normalization, and serve() passing the socket's peer through to a route.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { clientAddress, createModule, route, serve } from "../../src/core/mod.ts";
import { addressKey, normalizeAddress, socketAddress } from "../../src/core/client_address.ts";

const request = new Request("http://localhost/");

describe("socketAddress()", () => {
  it("reads Deno's, Bun's, @hono/node-server's and an explicit shape", () => {
    assert.equal(
      socketAddress(request, { remoteAddr: { transport: "tcp", hostname: "192.0.2.1", port: 1 } }),
      "192.0.2.1",
    );
    const bunServer = {
      requestIP: (r: Request) => (r === request ? { address: "::ffff:192.0.2.2", port: 2 } : null),
    };
    assert.equal(socketAddress(request, bunServer), "192.0.2.2");
    assert.equal(socketAddress(new Request("http://localhost/"), bunServer), null);
    assert.equal(
      socketAddress(request, { incoming: { socket: { remoteAddress: "2001:DB8::3" } } }),
      "2001:db8::3",
    );
    assert.equal(socketAddress(request, { remoteAddress: "192.0.2.4" }), "192.0.2.4");
  });

  it("is null for an in-process call, a Unix socket, a throwing server or anything else", () => {
    assert.equal(socketAddress(request, undefined), null);
    assert.equal(socketAddress(request, { remoteAddr: { transport: "unix", path: "/s" } }), null);
    assert.equal(
      socketAddress(request, {
        requestIP: () => {
          throw new Error("not mine");
        },
      }),
      null,
    );
    assert.equal(socketAddress(request, { remoteAddress: "not an address" }), null);
    assert.equal(socketAddress(request, "192.0.2.5"), null);
  });
});

describe("clientAddress()", () => {
  const forwarded = (value: string, name = "x-forwarded-for") =>
    new Request("http://localhost/", { headers: { [name]: value } });

  it("ignores forwarded headers unless trustProxy names one", () => {
    assert.equal(clientAddress(forwarded("203.0.113.1"), "10.0.0.1", false), "10.0.0.1");
    assert.equal(clientAddress(forwarded("203.0.113.1"), null, false), null);
  });

  it("takes the left-most address of the trusted header, the socket's without one", () => {
    const trust = "x-forwarded-for";
    assert.equal(
      clientAddress(forwarded("203.0.113.1, 10.0.0.2"), "10.0.0.1", trust),
      "203.0.113.1",
    );
    assert.equal(clientAddress(forwarded("[2001:db8::1]:443"), "10.0.0.1", trust), "2001:db8::1");
    assert.equal(clientAddress(forwarded("garbage"), "10.0.0.1", trust), "10.0.0.1");
    assert.equal(clientAddress(request, "10.0.0.1", trust), "10.0.0.1");
    assert.equal(
      clientAddress(
        forwarded('for="[2001:db8::7]:80";proto=https', "forwarded"),
        null,
        "forwarded",
      ),
      "2001:db8::7",
    );
    assert.equal(
      clientAddress(forwarded("198.51.100.9", "x-real-ip"), null, "x-real-ip"),
      "198.51.100.9",
    );
  });
});

describe("normalizeAddress() and addressKey()", () => {
  it("canonicalizes IPv4, IPv6 and mapped addresses, and refuses the rest", () => {
    assert.equal(normalizeAddress("192.0.2.1:8080"), "192.0.2.1");
    assert.equal(normalizeAddress("::ffff:c000:0201"), "192.0.2.1");
    assert.equal(normalizeAddress("fe80::1%eth0"), "fe80::1");
    assert.equal(normalizeAddress("2001:0db8:0000::0001"), "2001:db8::1");
    for (const bad of ["", "256.1.1.1", "localhost", "1.2.3", "::g", "1.2.3.4.5"]) {
      assert.equal(normalizeAddress(bad), null, bad);
    }
  });

  it("counts IPv4 per address and IPv6 per /64", () => {
    assert.equal(addressKey("192.0.2.1"), "192.0.2.1");
    assert.equal(addressKey("2001:db8:1:2:3:4:5:6"), "2001:db8:1:2::/64");
    assert.equal(addressKey("2001:db8:1:2::9"), "2001:db8:1:2::/64");
    assert.equal(addressKey("2001:db8::1"), "2001:db8:0:0::/64");
    assert.equal(addressKey("::1"), "0:0:0:0::/64");
  });
});

describe("serve()", () => {
  it("passes the connection's peer address to routes; an in-process fetch has none", async () => {
    const echo = createModule({
      name: "echo",
      routes: [route({
        method: "GET",
        path: "/",
        handler: ({ remoteAddress }) => ({ remoteAddress }),
      })],
    });
    const server = await serve([echo], { port: 0, hostname: "127.0.0.1", handleSignals: false });
    try {
      const response = await fetch(`http://127.0.0.1:${server.port}/api/echo`);
      assert.deepEqual(await response.json(), { remoteAddress: "127.0.0.1" });
    } finally {
      await server.shutdown();
    }
    const direct = await echo.fetch(new Request("http://localhost/api/echo"));
    assert.deepEqual(await direct.json(), { remoteAddress: null });
  });
});
