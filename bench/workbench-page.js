// The workbench window for the benches that measure it (ui, timeline): `reprise serve` (the
// loopback web host, on the port it picks), headless Chromium from the system, and one page
// whose engine has answered. Not a bench itself (run.js runs only *.bench.js).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { chromium } from '@playwright/test';

/** `reprise serve`, allowed to open files under `reach` by path when given; its URL with the token. */
function serve(root, reach) {
  return new Promise((resolve, reject) => {
    const args = [join(root, 'bin', 'reprise.js'), 'serve', ...(reach ? ['--root', reach] : [])];
    const proc = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+/.exec(out);
      if (m) resolve({ url: m[0], proc });
    });
    proc.stderr.on('data', (d) => (out += d));
    proc.on('exit', (c) => reject(new Error(`serve exited ${c}: ${out}`)));
  });
}

/**
 * The web host and a page of the workbench on it, its engine connected. `close()` closes
 * the browser and stops the host; call it in a `finally`.
 */
export async function openWorkbench(root, { reach, viewport }) {
  const { url, proc } = await serve(root, reach);
  const browser = await chromium
    .launch({
      executablePath: process.env.REPRISE_CHROMIUM ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    })
    .catch((e) => {
      proc.kill('SIGTERM');
      throw e;
    });
  const close = async () => {
    await browser.close();
    proc.kill('SIGTERM');
  };
  try {
    const page = await browser.newPage({ viewport });
    await page.goto(url);
    await page
      .getByTestId('engine')
      .filter({ hasText: /engine \d/ })
      .waitFor();
    return { browser, page, close };
  } catch (e) {
    await close();
    throw e;
  }
}
