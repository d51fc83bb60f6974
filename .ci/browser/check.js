// Headless-browser check of the GraphQL playground, run by .ci/browser-check.
//
// Debian's chromium, driven by playwright-core, opens BASE_URL/playground as
// a person would: it enters the application keys in GraphiQL's Headers tab
// and a query in the query editor (click into the editor, select all, then
// keyboard input of the text, like a paste: typing key by key would fight
// CodeMirror's bracket auto-closing), runs the query with the Run button and
// checks the result pane, opens the Docs panel and follows the Query root
// type to its fields, and asks for autocompletion (Ctrl-Space). It fails if
// the page requests anything from a host other than the server, if a page
// error is thrown, if a token ends up in localStorage, or if sessionStorage
// does not hold the keys (also after a reload).
//
// Environment: BASE_URL (http://127.0.0.1:PORT), APP_ID, APP_TOKEN (a project
// with a campaign named CAMPAIGN, default "browser-check"), CHROMIUM (default
// /usr/bin/chromium). On failure a screenshot is written to a temp file.
'use strict';

const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');

const baseURL = must('BASE_URL');
const appId = must('APP_ID');
const appToken = must('APP_TOKEN');
const campaign = process.env.CAMPAIGN || 'browser-check';
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
const origin = new URL(baseURL).origin;
const TIMEOUT = 20000; // per wait; the whole check takes a few seconds

function must(name) {
  const v = process.env[name];
  if (!v) {
    console.error(`browser-check: ${name} is not set`);
    process.exit(2);
  }
  return v;
}

let step = 'starting';
function log(msg) {
  step = msg;
  console.log(`browser-check: ${msg}`);
}

// Sets the text of the CodeMirror editor inside `section` as a user would:
// click into it, select all, and type (insert) the new text. Then waits until
// GraphiQL has taken the edit in (its debounced change handler stores the
// text under `storageKey`), as running earlier would use the old operation.
async function fillEditor(page, section, text, storageKey) {
  const editor = page.locator(`${section} .graphiql-editor:not(.hidden) .CodeMirror`);
  await editor.waitFor({ state: 'visible', timeout: TIMEOUT });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
  // The editor must now hold exactly the text (no auto-closed brackets).
  await page.waitForFunction(
    ([sel, want]) => {
      const cm = document.querySelector(sel);
      return cm && cm.CodeMirror && cm.CodeMirror.getValue() === want;
    },
    [`${section} .graphiql-editor:not(.hidden) .CodeMirror`, text],
    { timeout: TIMEOUT },
  );
  try {
    await page.waitForFunction(
      ([key, want]) => window.sessionStorage.getItem(key) === want,
      [storageKey, text],
      { timeout: TIMEOUT },
    );
  } catch (e) {
    const local = await page.evaluate((key) => window.localStorage.getItem(key) !== null, storageKey);
    throw new Error(`GraphiQL did not keep the edit in sessionStorage under "${storageKey}"` +
      (local ? ' (it is in localStorage: the page does not give GraphiQL sessionStorage)' : ''));
  }
}

async function main() {
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
  const problems = [];
  let page;
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    // Every request the page makes must go to the server (no CDN). Others
    // are recorded and aborted, so a stray one fails fast, not by timeout.
    const requests = [];
    const external = [];
    const isLocal = (url) => {
      const u = new URL(url);
      return u.origin === origin || ['data:', 'blob:', 'about:'].includes(u.protocol);
    };
    context.on('request', (req) => {
      requests.push(req.url());
      if (!isLocal(req.url())) external.push(req.url());
    });
    await context.route('**/*', (route) => (isLocal(route.request().url()) ? route.continue() : route.abort()));

    page = await context.newPage();
    page.setDefaultTimeout(TIMEOUT);
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') console.log(`browser-check: (browser console) ${msg.text()}`);
    });

    log(`opening ${baseURL}/playground`);
    const resp = await page.goto(`${baseURL}/playground`);
    if (!resp || resp.status() !== 200) throw new Error(`GET /playground: ${resp && resp.status()}`);
    await page.locator('.graphiql-container').waitFor();
    await page.locator('#auth-hint', { hasText: 'X-App-Token' }).waitFor();

    log('the first screen asks for keys (the key panel) instead of showing a 401');
    await page.locator('#key-panel', { hasText: 'Enter your application keys' }).waitFor();
    const graphqlBeforeKeys = requests.filter((u) => new URL(u).pathname === '/graphql');
    if (graphqlBeforeKeys.length) problems.push(`requests to /graphql before keys were entered: ${graphqlBeforeKeys.length}`);

    log('entering the application keys in the key panel');
    await page.locator('#key-panel input[aria-label="X-App-Id"]').fill(appId);
    await page.locator('#key-panel input[aria-label="X-App-Token"]').fill(appToken);
    await page.locator('#key-panel button[type="submit"]').click();
    await page.waitForFunction(() => document.getElementById('key-panel').childElementCount === 0, null, { timeout: TIMEOUT });
    await page.waitForFunction(
      (id) => (window.sessionStorage.getItem('graphiql:headers') || '').includes(id), appId, { timeout: TIMEOUT });

    log('entering the application keys in the Headers tab');
    await page.locator('.graphiql-editor-tools button[data-name="headers"]').click();
    const headers = JSON.stringify({ 'X-App-Id': appId, 'X-App-Token': appToken }, null, 2);
    await fillEditor(page, 'section.graphiql-editor-tool', headers, 'graphiql:headers');

    log('entering and running a query');
    const query = `query BrowserCheck {\n  campaign(idOrName: ${JSON.stringify(campaign)}) {\n    id\n    name\n  }\n}\n`;
    await fillEditor(page, 'section.graphiql-query-editor', query, 'graphiql:query');
    await page.locator('button.graphiql-execute-button').click();
    const result = page.locator('section.result-window');
    try {
      await result.getByText(`"name": ${JSON.stringify(campaign)}`).waitFor();
    } catch (e) {
      throw new Error(`the result pane does not show the campaign; it shows:\n${await result.innerText()}`);
    }
    const shown = await result.innerText();
    if (!/"id": "camp_/.test(shown) || /"errors"/.test(shown)) throw new Error(`unexpected result:\n${shown}`);

    log('opening the Docs panel');
    await page.locator('button[aria-label="Show Documentation Explorer"]').click();
    const docs = page.locator('.graphiql-doc-explorer');
    await docs.waitFor();
    const queryType = docs.locator('a.graphiql-doc-explorer-type-name', { hasText: /^Query$/ });
    try {
      await queryType.waitFor();
    } catch (e) {
      throw new Error(`the Docs panel lists no Query root type; it shows:\n${await docs.innerText()}`);
    }
    await queryType.click();
    await docs.locator('.graphiql-doc-explorer-title', { hasText: /^Query$/ }).waitFor();
    for (const field of ['campaign', 'campaigns']) {
      await docs.locator('a.graphiql-doc-explorer-field-name', { hasText: new RegExp(`^${field}$`) }).waitFor();
    }

    log('asking for autocompletion in the query editor');
    const queryEditor = page.locator('section.graphiql-query-editor .CodeMirror');
    await queryEditor.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText('{\n  campa');
    await page.keyboard.press('Control+Space');
    const hints = page.locator('.CodeMirror-hints');
    try {
      for (const field of ['campaign', 'campaigns']) {
        await hints.locator('.CodeMirror-hint', { hasText: new RegExp(`^${field}$`) }).waitFor();
      }
    } catch (e) {
      throw new Error(`no completions for "campa": ${(await hints.count()) ? await hints.innerText() : 'no hint list'}`);
    }
    await page.keyboard.press('Escape');

    log('checking the keys are kept in sessionStorage only');
    // GraphiQL stores headers 500 ms after the last edit: wait for them.
    try {
      await page.waitForFunction(
        (token) => Object.keys(sessionStorage).some((k) => (sessionStorage.getItem(k) || '').includes(token)),
        appToken,
        { timeout: TIMEOUT },
      );
    } catch (e) {
      throw new Error('sessionStorage does not hold the application token (headers are not kept for the session)');
    }
    const leaked = await page.evaluate((token) => {
      const keys = [];
      for (let i = 0; i < localStorage.length; i++) {
        const k = localStorage.key(i);
        if (k.includes(token) || (localStorage.getItem(k) || '').includes(token)) keys.push(k);
      }
      return keys;
    }, appToken);
    if (leaked.length) throw new Error(`localStorage holds the application token under: ${leaked.join(', ')}`);
    const localKeys = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('graphiql:')));
    if (localKeys.length) throw new Error(`GraphiQL wrote to localStorage: ${localKeys.join(', ')}`);

    log('reloading: the keys stay for the session');
    await page.reload();
    await page.locator('.graphiql-container').waitFor();
    await page.waitForFunction(
      (token) => [...document.querySelectorAll('section.graphiql-editor-tool .CodeMirror')]
        .some((cm) => cm.CodeMirror && cm.CodeMirror.getValue().includes(token)),
      appToken,
      { timeout: TIMEOUT },
    );

    log('checking every request went to the server');
    if (external.length) problems.push(`requests to hosts other than the server:\n  ${external.join('\n  ')}`);
    if (problems.length) throw new Error(problems.join('\n'));
    console.log(`browser-check: OK (${requests.length} requests, all to ${origin})`);
  } catch (err) {
    if (page) {
      const shot = path.join(os.tmpdir(), `browser-check-${Date.now()}.png`);
      try {
        await page.screenshot({ path: shot, fullPage: true });
        console.error(`browser-check: screenshot: ${shot}`);
      } catch (e) {
        console.error(`browser-check: no screenshot: ${e.message}`);
      }
    }
    throw new Error(`while ${step}: ${err.message}${problems.length ? `\n${problems.join('\n')}` : ''}`);
  } finally {
    await browser.close();
  }
}

const deadline = setTimeout(() => {
  console.error(`browser-check: FAILED: timed out after 90 s while ${step}`);
  process.exit(1);
}, 90000);
main().then(
  () => clearTimeout(deadline),
  (err) => {
    console.error(`browser-check: FAILED ${err.message}`);
    process.exit(1);
  },
);
