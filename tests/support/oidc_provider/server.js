// A real OpenID Provider for Steward's OIDC tests: panva's certified oidc-provider, on
// 127.0.0.1 only, with one confidential client (authorization code + PKCE S256), its own signing
// key, and a minimal login page (username + password) instead of the library's dev pages; its
// RP-initiated logout sends the browser back to <the client's origin>/login.
//
//   node server.js            (configured through the environment, see CONFIG below)
//
// People and test switches are read from OIDC_TEST_STATE (a JSON file) at every request, so a
// test changes someone's groups or makes the next ID token hostile by rewriting that file:
//   {"users": {"alice": {"password": "...", "email": "...", "name": "...", "groups": [...]}},
//    "tamper": null | "other_key" | "expired" | "wrong_audience" | "alg_none" | "wrong_nonce"
//              | "wrong_issuer" | "groups_in_token" | "userinfo_other_sub" | "unknown_kid"
//              | "not_a_jwt",
//    "no_end_session": true (discovery without end_session_endpoint)}
// A tamper rewrites the ID token of the token endpoint's answer (the real one, from a real code
// exchange) as a hostile or broken provider would: re-signed with this provider's key unless the
// point is the key or the algorithm.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { SignJWT, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair } from "jose";
import Provider from "oidc-provider";

const CONFIG = {
  port: Number(process.env.OIDC_TEST_PORT),
  statePath: process.env.OIDC_TEST_STATE,
  clientId: process.env.OIDC_TEST_CLIENT_ID ?? "steward",
  clientSecret: process.env.OIDC_TEST_CLIENT_SECRET,
  redirectUris: JSON.parse(process.env.OIDC_TEST_REDIRECT_URIS ?? "[]"),
};
if (!CONFIG.port || !CONFIG.statePath || !CONFIG.clientSecret || !CONFIG.redirectUris.length) {
  console.error("OIDC_TEST_PORT, OIDC_TEST_STATE, OIDC_TEST_CLIENT_SECRET, OIDC_TEST_REDIRECT_URIS");
  process.exit(2);
}
const ISSUER = `http://127.0.0.1:${CONFIG.port}`;

function state() {
  return JSON.parse(readFileSync(CONFIG.statePath, "utf8"));
}

const { privateKey } = await generateKeyPair("RS256", { extractable: true });
const signingJwk = { ...(await exportJWK(privateKey)), kid: "test-key-1", alg: "RS256", use: "sig" };

const provider = new Provider(ISSUER, {
  clients: [
    {
      client_id: CONFIG.clientId,
      client_secret: CONFIG.clientSecret,
      redirect_uris: CONFIG.redirectUris,
      // RP-initiated logout sends the browser back to the login page of each Steward
      post_logout_redirect_uris: CONFIG.redirectUris.map((uri) => new URL("/login", uri).href),
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    },
  ],
  jwks: { keys: [signingJwk] },
  cookies: { keys: ["steward-test-provider-cookie-key"] },
  pkce: { required: () => true },
  scopes: ["openid", "profile", "email", "groups"],
  claims: {
    openid: ["sub"],
    profile: ["name", "preferred_username"],
    email: ["email", "email_verified"],
    groups: ["groups"],
  },
  features: {
    devInteractions: { enabled: false },
    // RP-initiated logout (end_session_endpoint), with plain pages of this server's own (the
    // library's default ones load a web font from the internet)
    rpInitiatedLogout: {
      enabled: true,
      async logoutSource(ctx, form) {
        ctx.body = `<!doctype html><html><head><meta charset="utf-8"><title>Sign out</title></head><body>
<h1>Sign out of the Test OpenID Provider?</h1>${form}
<button type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>
<button type="submit" form="op.logoutForm">No, stay signed in</button></body></html>`;
      },
      async postLogoutSuccessSource(ctx) {
        ctx.body = `<!doctype html><html><head><meta charset="utf-8"><title>Signed out</title></head><body>
<h1>Signed out of the Test OpenID Provider</h1></body></html>`;
      },
    },
  },
  interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
  async findAccount(ctx, sub) {
    const person = state().users[sub];
    if (!person) return undefined;
    return {
      accountId: sub,
      async claims() {
        return {
          sub,
          preferred_username: person.username ?? sub,
          name: person.name ?? "",
          email: person.email ?? "",
          email_verified: true,
          groups: person.groups ?? [],
        };
      },
    };
  },
  // first-party test client: no consent page, every requested scope granted
  async loadExistingGrant(ctx) {
    const known = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
    if (known) {
      const grant = await ctx.oidc.provider.Grant.find(known);
      if (grant) return grant;
    }
    if (!ctx.oidc.session.accountId) return undefined;
    const grant = new ctx.oidc.provider.Grant({
      clientId: ctx.oidc.client.clientId,
      accountId: ctx.oidc.session.accountId,
    });
    grant.addOIDCScope(String(ctx.oidc.params.scope ?? "openid"));
    await grant.save();
    return grant;
  },
  ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, AuthorizationCode: 60, IdToken: 600 },
});

const escape = (text) =>
  String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

function loginPage(uid, message = "") {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Test OpenID Provider</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head><body>
<h1>Test OpenID Provider</h1>${message ? `<p role="alert">${escape(message)}</p>` : ""}
<form method="post" action="/interaction/${escape(uid)}/login">
<label>Username <input name="username" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button></form></body></html>`;
}

async function readForm(req) {
  let body = "";
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 10000) throw new Error("form too large");
  }
  return new URLSearchParams(body);
}

// the login interaction (GET shows the form, POST checks the password)
provider.use(async (ctx, next) => {
  const match = ctx.path.match(/^\/interaction\/([\w-]+)(\/login)?$/);
  if (!match) return next();
  const details = await provider.interactionDetails(ctx.req, ctx.res);
  if (details.uid !== match[1]) ctx.throw(400, "interaction mismatch");
  if (ctx.method === "GET" && !match[2]) {
    ctx.type = "html";
    ctx.body = loginPage(details.uid);
    return;
  }
  if (ctx.method !== "POST" || !match[2]) ctx.throw(405);
  const form = await readForm(ctx.req);
  const username = form.get("username") ?? "";
  const person = state().users[username];
  if (!person || person.password !== form.get("password")) {
    ctx.status = 401;
    ctx.type = "html";
    ctx.body = loginPage(details.uid, "Wrong username or password");
    return;
  }
  const returnTo = await provider.interactionResult(ctx.req, ctx.res, { login: { accountId: username } });
  ctx.status = 303;
  ctx.redirect(returnTo);
});

// the hostile switches, applied to the userinfo endpoint's and the token endpoint's real answers
provider.use(async (ctx, next) => {
  await next();
  if (ctx.path === "/.well-known/openid-configuration" && ctx.status === 200 && state().no_end_session) {
    const { end_session_endpoint, ...rest } = ctx.body; // as a provider without RP-initiated logout
    ctx.body = rest;
    return;
  }
  if (ctx.path === "/me" && ctx.status === 200 && state().tamper === "userinfo_other_sub") {
    ctx.body = { ...ctx.body, sub: "someone-else" };
    return;
  }
  if (ctx.path !== "/token" || ctx.status !== 200 || !ctx.body?.id_token) return;
  const tamper = state().tamper;
  if (!tamper || tamper === "userinfo_other_sub") return;
  const original = ctx.body.id_token;
  const claims = decodeJwt(original);
  const header = decodeProtectedHeader(original);
  const now = Math.floor(Date.now() / 1000);
  let key = privateKey;
  if (tamper === "alg_none") {
    const encode = (part) => Buffer.from(JSON.stringify(part)).toString("base64url");
    ctx.body = { ...ctx.body, id_token: `${encode({ alg: "none", typ: "JWT" })}.${encode(claims)}.` };
    return;
  }
  if (tamper === "not_a_jwt") {
    ctx.body = { ...ctx.body, id_token: "not-a.json-web.token" };
    return;
  }
  let kid = header.kid;
  if (tamper === "other_key") key = (await generateKeyPair("RS256")).privateKey;
  else if (tamper === "unknown_kid") {
    key = (await generateKeyPair("RS256")).privateKey;
    kid = "rolled-key-the-jwks-does-not-have";
  }
  else if (tamper === "expired") Object.assign(claims, { iat: now - 7200, exp: now - 3600 });
  else if (tamper === "wrong_audience") claims.aud = "another-client";
  else if (tamper === "wrong_nonce") claims.nonce = "not-the-nonce-steward-sent";
  else if (tamper === "wrong_issuer") claims.iss = "http://127.0.0.1:1/evil";
  else if (tamper === "groups_in_token") claims.groups = state().token_groups ?? [];
  else throw new Error(`unknown tamper ${tamper}`);
  const token = await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid }).sign(key);
  ctx.body = { ...ctx.body, id_token: token };
});

const server = createServer(provider.callback());
server.listen(CONFIG.port, "127.0.0.1", () => console.log(`test OpenID Provider at ${ISSUER}`));
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => server.close(() => process.exit(0)));
