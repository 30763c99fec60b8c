/**
 * The Electron shell's decisions, as plain functions (Electron cannot start here): what a
 * native open dialog says (from what the pick is granted as, never the page's title for a
 * key or an adapter), which permission the page gets (the clipboard write of our own main
 * frame, nothing else), and the Edit menu (Electron's own, so paste, cut and undo work in a
 * text field on macOS).
 */
import { describe, expect, it } from 'vitest';
import type { PickRequest } from '../../shared/api.js';
import { createRemoteEngine, type EngineChild, type Grant } from '../../main/host/engine-remote.js';
import { dialogOptions, permissionAllowed } from '../../main/shell-policy.js';
import { menuTemplate } from '../../main/shell-menu.js';

describe('the native open dialog says what the pick will be granted as', () => {
  const lure = 'Open an artifact';

  it('an adapter dialog says the file will be run, whatever title the page asked for', () => {
    const o = dialogOptions({ kind: 'file', title: lure, use: 'adapter' });
    expect(o.title).not.toContain(lure);
    expect(o.title).toMatch(/kernel adapter/i);
    expect(o.message).toMatch(/RUN/);
    expect(o.buttonLabel).toMatch(/run/i);
    expect(o.properties).toEqual(['openFile']);
  });

  it('a key dialog says the key will sign, whatever title the page asked for', () => {
    const o = dialogOptions({ kind: 'file', title: lure, use: 'key' });
    expect(o.title).not.toContain(lure);
    expect(o.title).toMatch(/key/i);
    expect(o.message).toMatch(/SIGN/);
    expect(o.buttonLabel).toMatch(/sign/i);
  });

  it("a dialog that grants reading keeps the page's title, and says what becomes readable", () => {
    expect(dialogOptions({ kind: 'file', title: lure })).toMatchObject({
      title: lure,
      message: expect.stringMatching(/read the file you choose and the other files in its folder/),
      properties: ['openFile'],
    });
    // A folder is granted as a folder whatever `use` says (engine-remote.ts, pickGrant): so is its dialog.
    expect(dialogOptions({ kind: 'directory', title: 'Choose a case', use: 'key' })).toMatchObject({
      title: 'Choose a case',
      message: expect.stringMatching(/read the folder/),
      properties: ['openDirectory'],
    });
    expect(dialogOptions({ kind: 'file', title: 'x'.repeat(1000) }).title).toHaveLength(200);
  });

  it('the dialog a pick is shown is the one its grant matches (an adapter titled as an artifact is run, and says so)', async () => {
    const grants: Grant[] = [];
    let shown: ReturnType<typeof dialogOptions> | undefined;
    let answer: (m: unknown) => void = () => undefined;
    const child: EngineChild = {
      send(m) {
        if ('grant' in m) grants.push(m.grant);
        else if ('method' in m) setImmediate(() => answer({ id: m.id, result: [] }));
      },
      onMessage: (l) => void (answer = l),
      onExit: () => undefined,
      kill: () => undefined,
    };
    const engine = createRemoteEngine({
      start: () => child,
      pickPath: async (req: PickRequest) => {
        shown = dialogOptions(req);
        return '/picked/adapter.mjs';
      },
    });
    await engine.pickPath({ kind: 'file', title: lure, use: 'adapter' });
    expect(shown?.buttonLabel).toMatch(/run/i);
    await engine.listExamples();
    expect(grants).toContainEqual({ adapters: ['/picked/adapter.mjs'] });
  });
});

describe('permissions: the clipboard write of our own main frame, nothing else', () => {
  const page = 'app://reprise/index.html';

  it("allows navigator.clipboard.writeText for our page's main frame (a request or a check, by URL or origin)", () => {
    expect(permissionAllowed('clipboard-sanitized-write', page, true)).toBe(true);
    expect(permissionAllowed('clipboard-sanitized-write', 'app://reprise', true)).toBe(true);
  });

  it('refuses it to a subframe, another origin, or an unknown requester', () => {
    expect(permissionAllowed('clipboard-sanitized-write', page, false)).toBe(false);
    for (const url of [
      'https://evil.example/',
      'app://reprise.evil/',
      'app://user@reprise/',
      'file:///x',
      '',
      undefined,
    ])
      expect(permissionAllowed('clipboard-sanitized-write', url, true), String(url)).toBe(false);
  });

  it('refuses every other permission, reading the clipboard included', () => {
    for (const p of [
      'clipboard-read',
      'media',
      'geolocation',
      'notifications',
      'openExternal',
      'fullscreen',
      'unknown',
    ])
      expect(permissionAllowed(p, page, true), p).toBe(false);
  });
});

describe('the application menu', () => {
  const template = menuTemplate({ open: () => undefined, openRecent: () => undefined }, []);

  it("has Electron's own Edit menu (undo, redo, cut, copy, paste, select all)", () => {
    expect(template).toContainEqual({ role: 'editMenu' });
    expect(template.filter((m) => m.label === 'Edit')).toEqual([]);
  });

  it('keeps File (with Open Recent), View and Window', () => {
    const recent = [{ path: '/a/b.json', name: 'b.json', openedAtUtc: '2026-01-01T00:00:00Z' }];
    let opened = '';
    const t = menuTemplate({ open: () => undefined, openRecent: (p) => void (opened = p) }, recent);
    expect(t.map((m) => m.label ?? m.role)).toEqual(['File', 'editMenu', 'View', 'Window']);
    const file = t[0]!.submenu as { label?: string; submenu?: { label?: string; click?: () => void }[] }[];
    const item = file.find((i) => i.label === 'Open Recent')!.submenu![0]!;
    expect(item.label).toBe('/a/b.json');
    item.click!();
    expect(opened).toBe('/a/b.json');
  });
});
