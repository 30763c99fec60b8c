import { defineConfig } from '@playwright/test';

// One suite, two targets: the loopback web host in Debian's Chromium (always), and
// Electron through _electron.launch (only when an Electron binary is installed; see
// e2e/fixtures.ts). Never `npx playwright install`: the browser is the system's.
export default defineConfig({
  testDir: 'e2e',
  globalSetup: './test/setup/tmpdir.ts',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    launchOptions: {
      executablePath: process.env['REPRISE_CHROMIUM'] ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
    trace: 'off',
    screenshot: 'off',
  },
  projects: [
    { name: 'web', use: { target: 'web' } as never },
    { name: 'electron', use: { target: 'electron' } as never },
  ],
});
