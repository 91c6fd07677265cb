/**
 * The entry of `examples/spa/qr.js`, which `deno task spa:client` bundles for the example SPA: the
 * QR code of TOTP's `otpauth://` URL is drawn in the browser by `uqr` (an SVG string of squares,
 * nothing of the URL in it as text), so the key never leaves the page for a QR web service.
 */
export { renderSVG } from "uqr";
