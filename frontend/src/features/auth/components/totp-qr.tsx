// Loaded only when someone turns two-factor authentication on (React.lazy): the QR encoder
// stays out of every other page's bundle.
import { encode } from "uqr";
import { qrPath } from "@/features/auth/lib/qr-path";

/** The otpauth:// URI as a QR code for an authenticator app to scan: dark on white always,
 * with the quiet zone scanners need, in either color scheme. */
export default function TotpQr({ uri, size = 200 }: { uri: string; size?: number }) {
  const qr = encode(uri, { ecc: "M", border: 4 });
  return (
    <svg
      role="img"
      aria-label="QR code for your authenticator app"
      width={size}
      height={size}
      viewBox={`0 0 ${qr.size} ${qr.size}`}
      shapeRendering="crispEdges"
      style={{ display: "block", background: "#fff", borderRadius: 4 }}
    >
      <rect width={qr.size} height={qr.size} fill="#fff" />
      <path d={qrPath(qr.data)} fill="#000" />
    </svg>
  );
}
