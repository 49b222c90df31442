import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import type { TlsFiles } from "./redis-access.js";

const openssl = (...args: string[]) => promisify(execFile)("openssl", args, { timeout: 20_000 });

/**
 * Makes, in `dir`, a CA of its own and a server certificate it signed for 127.0.0.1 (the address
 * as an IP subjectAltName, which is what a client checks an address against), valid for a day.
 * A client trusts it by its CA, as an operator's would with NODE_EXTRA_CA_CERTS.
 */
export async function makeCertificates(dir: string): Promise<TlsFiles> {
  const [ca, caKey, cert, key, request, extensions] = [
    "ca.crt",
    "ca.key",
    "server.crt",
    "server.key",
    "server.csr",
    "server.ext",
  ].map((file) => join(dir, file)) as [string, string, string, string, string, string];
  const ecKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  await openssl("req", "-x509", ...ecKey, "-keyout", caKey, "-out", ca, "-days", "1", "-subj", "/CN=payreq test CA");
  await openssl("req", ...ecKey, "-keyout", key, "-out", request, "-subj", "/CN=127.0.0.1");
  await writeFile(extensions, "subjectAltName=IP:127.0.0.1\n");
  await openssl(
    "x509",
    "-req",
    "-in",
    request,
    "-CA",
    ca,
    "-CAkey",
    caKey,
    "-CAcreateserial",
    "-out",
    cert,
    "-days",
    "1",
    "-extfile",
    extensions,
  );
  return { cert, key, ca };
}
