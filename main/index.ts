/**
 * The Electron main process: the whole security boundary of the desktop app, after
 * Element Desktop. Sandboxed, context-isolated renderer without Node; the UI served from
 * the privileged `app://` scheme (shell-policy.ts: real-path confinement, nosniff, CSP;
 * not file://); navigation of any frame and new windows refused, and every permission but
 * the clipboard write of our own page; every IPC call checked for its sender and its size.
 * The engine runs in a utilityProcess; this process never parses or hashes an artifact,
 * and grants the engine only the paths the user picks in its native dialogs or names to it.
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, session, type IpcMainInvokeEvent } from 'electron';
import { readFile, realpath, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  API_METHODS,
  IPC_EVENT_CHANNEL,
  IPC_PREFIX,
  type ApiEvent,
  type CheckMode,
  type RecentFile,
} from '../shared/api.js';
import { createEngineClient, type EngineClient } from './engine-client.js';
import type { RecentStore } from './host/engine-remote.js';
import { dispatch } from './host/dispatch.js';
import { checkEngineFiles } from './host/engine-integrity.js';
import { oversizedCall } from './host/message-size.js';
import { menuTemplate } from './shell-menu.js';
import {
  APP_ORIGIN as ORIGIN,
  APP_SCHEME as SCHEME,
  appResponse,
  dialogOptions,
  isAppUrl,
  permissionAllowed,
} from './shell-policy.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const rendererRoot = resolve(here, '../renderer');

protocol.registerSchemesAsPrivileged([
  { scheme: SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

const rendererRootReal = realpath(rendererRoot);
rendererRootReal.catch(() => undefined);

async function serveApp(request: Request): Promise<Response> {
  try {
    const r = await appResponse(await rendererRootReal, request.url);
    return new Response(r.body, { status: r.status, headers: r.headers });
  } catch {
    return new Response(null, { status: 500 });
  }
}

/** IPC is answered only for our own top-level frame at our own origin. */
function trustedSender(e: IpcMainInvokeEvent): boolean {
  const frame = e.senderFrame;
  if (!frame || frame !== e.sender.mainFrame) return false;
  return isAppUrl(frame.url);
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1400,
    height: 900,
    title: 'Reprise',
    show: false,
    webPreferences: {
      preload: join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      // Middle-click must not open links in new windows (Electronegativity AUXCLICK_JS_CHECK).
      disableBlinkFeatures: 'Auxclick',
    },
  });
  win.webContents.on('will-navigate', (e) => e.preventDefault());
  // Subframes too (will-navigate covers only the main frame): the page never navigates.
  win.webContents.on('will-frame-navigate', (e) => e.preventDefault());
  win.webContents.on('will-redirect', (e) => e.preventDefault());
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  win.once('ready-to-show', () => win.show());
  void win.loadURL(`${ORIGIN}/index.html`);
  return win;
}

/** The one window (null until the app is ready). */
let win: BrowserWindow | null = null;

function sendEvent(e: ApiEvent): void {
  if (win && !win.isDestroyed()) win.webContents.send(IPC_EVENT_CHANNEL, e);
}

async function openViaDialog(host: EngineClient, mode: CheckMode): Promise<void> {
  // pickPath grants the picked file to the engine.
  const path = await host.pickPath({
    kind: 'file',
    title: mode === 'replay' ? 'Replay an artifact' : 'Verify an artifact',
  });
  if (path) sendEvent({ type: 'open-path', path, mode });
}

/**
 * A file the user named outside a dialog (Open Recent, a second launch's argument): granted
 * as a picked file is, its folder (the gate refuses a folder named as a file, whose "folder"
 * would be its parent).
 */
async function openNamed(host: EngineClient, path: string, mode: CheckMode): Promise<void> {
  await host.grant({ files: [path] }).catch(() => undefined);
  sendEvent({ type: 'open-path', path, mode });
}

function buildMenu(host: EngineClient, recent: RecentFile[]): Menu {
  return Menu.buildFromTemplate(
    menuTemplate(
      {
        open: (mode) => void openViaDialog(host, mode),
        openRecent: (path) => void openNamed(host, path, 'verify'),
      },
      recent,
    ),
  );
}

/** Recent files in the app's userData folder, mirrored into the OS recent documents; onSave follows each save. */
function recentStoreAt(recentFile: string, onSave: (files: RecentFile[]) => void): RecentStore {
  return {
    // The app's own file in its userData folder, which no request names: a plain read.
    load: async () => JSON.parse(await readFile(recentFile, 'utf8')) as RecentFile[],
    save: async (files) => {
      await writeFile(recentFile, JSON.stringify(files, null, 2));
      app.clearRecentDocuments();
      for (const f of files) app.addRecentDocument(f.path);
      onSave(files);
    },
  };
}

// The engine runs in a utilityProcess (its worker threads inside it): a worker's memory
// cannot take this process, or the window, down.
function startEngine(recentStore: RecentStore): EngineClient {
  return createEngineClient({
    entry: join(here, 'engine-process.js'),
    recentStore,
    // Packaged builds: the unpacked engine files must match the hashes written at build time.
    beforeStart: () => {
      if (app.isPackaged) checkEngineFiles(here);
    },
    // Native dialogs: the path chosen by the user goes to the engine, never parsed here. What
    // the dialog says follows from what the pick is granted as, not from the page.
    pickPath: async (req) => {
      const opts = dialogOptions(req);
      const r = win ? await dialog.showOpenDialog(win, opts) : await dialog.showOpenDialog(opts);
      return r.canceled ? null : (r.filePaths[0] ?? null);
    },
  });
}

/** Every API method over IPC, for our own window only. */
function answerIpc(host: EngineClient): void {
  for (const method of API_METHODS) {
    ipcMain.handle(IPC_PREFIX + method, async (e, ...params: unknown[]) => {
      if (!trustedSender(e)) throw new Error('refused: unexpected sender');
      // The web host's WebSocket holds a call to the same bound (maxPayload).
      const tooLarge = oversizedCall(params);
      if (tooLarge) throw new Error(tooLarge);
      const resp = await dispatch(host, { id: 0, method, params });
      if (!resp) throw new Error('bad request');
      if ('error' in resp) throw new Error(resp.error.message);
      return resp.result;
    });
  }
}

function onSecondInstance(host: EngineClient, argv: string[]): void {
  if (!win) return;
  if (win.isMinimized()) win.restore();
  win.focus();
  // `reprise-app FILE` while running: open FILE in the running window.
  const file = argv.slice(1).find((a) => !a.startsWith('-') && a !== '.' && /\.[A-Za-z0-9]+$/.test(a));
  if (file) void openNamed(host, resolve(file), 'verify');
}

async function onReady(): Promise<void> {
  protocol.handle(SCHEME, serveApp);
  session.defaultSession.setPermissionRequestHandler((_wc, perm, cb, details) =>
    cb(permissionAllowed(perm, details.requestingUrl, details.isMainFrame)),
  );
  session.defaultSession.setPermissionCheckHandler((_wc, perm, origin, details) =>
    permissionAllowed(perm, details.requestingUrl ?? origin, details.isMainFrame),
  );
  // A save happens only after a job has started, by which time host is set.
  const recentStore = recentStoreAt(join(app.getPath('userData'), 'recent-files.json'), (files) =>
    Menu.setApplicationMenu(buildMenu(host, files)),
  );
  const host = startEngine(recentStore);
  host.subscribe(sendEvent);
  Menu.setApplicationMenu(buildMenu(host, await host.recentFiles()));
  answerIpc(host);
  win = createWindow();
  app.on('second-instance', (_e, argv) => onSecondInstance(host, argv));
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) win = createWindow();
  });
  // The engine's process removes its temporary folders (a case's copies, the training key)
  // before it ends: the quit waits for it (bounded in engine-remote.ts), then exits.
  app.once('will-quit', (e) => {
    e.preventDefault();
    void host.close().finally(() => app.exit(0));
  });
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.enableSandbox();
  app.on('web-contents-created', (_e, contents) => {
    contents.on('will-attach-webview', (e) => e.preventDefault());
  });
  void app.whenReady().then(onReady);
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
