/**
 * The Electron main process: the whole security boundary of the desktop app, after
 * Element Desktop. Sandboxed, context-isolated renderer without Node; the UI served from
 * the privileged `app://` scheme with a traversal guard (not file://); navigation, new
 * windows and permission requests refused; every IPC call checked for its sender. The
 * engine runs in worker threads (EngineHost); this thread never parses or hashes.
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, session, type IpcMainInvokeEvent, type MenuItemConstructorOptions } from 'electron';
import { readFile, writeFile } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_METHODS, IPC_EVENT_CHANNEL, IPC_PREFIX, type ApiEvent, type CheckMode, type RecentFile } from '../shared/api.js';
import { createEngineClient } from './engine-client.js';
import type { RecentStore } from './host/engine-host.js';
import { dispatch } from './host/dispatch.js';
import { CSP } from './webhost/server.js';

const SCHEME = 'app';
const HOST = 'reprise';
const ORIGIN = `${SCHEME}://${HOST}`;
const here = fileURLToPath(new URL('.', import.meta.url));
const rendererRoot = resolve(here, '../renderer');

protocol.registerSchemesAsPrivileged([{ scheme: SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

const MIME: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json', '.ttf': 'font/ttf', '.woff2': 'font/woff2' };

async function serveApp(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.host !== HOST) return new Response('forbidden', { status: 403 });
  let pathname = decodeURIComponent(url.pathname);
  if (pathname === '/' || pathname === '') pathname = '/index.html';
  const file = resolve(rendererRoot, '.' + pathname);
  if (!file.startsWith(rendererRoot + sep)) return new Response('forbidden', { status: 403 });
  try {
    const body = await readFile(file);
    return new Response(body, { headers: { 'Content-Type': MIME[extname(file)] ?? 'application/octet-stream', 'Content-Security-Policy': CSP.replace("ws://127.0.0.1:*", "'none'") } });
  } catch {
    return new Response('not found', { status: 404 });
  }
}

/** IPC is answered only for our own top-level frame at our own origin. */
function trustedSender(e: IpcMainInvokeEvent): boolean {
  const frame = e.senderFrame;
  if (!frame || frame !== e.sender.mainFrame) return false;
  try {
    return new URL(frame.url).origin === ORIGIN || frame.url.startsWith(ORIGIN + '/');
  } catch {
    return false;
  }
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
  win.webContents.on('will-redirect', (e) => e.preventDefault());
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  win.once('ready-to-show', () => win.show());
  void win.loadURL(`${ORIGIN}/index.html`);
  return win;
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.enableSandbox();
  app.on('web-contents-created', (_e, contents) => {
    contents.on('will-attach-webview', (e) => e.preventDefault());
  });
  void app.whenReady().then(async () => {
    protocol.handle(SCHEME, serveApp);
    session.defaultSession.setPermissionRequestHandler((_wc, _perm, cb) => cb(false));
    session.defaultSession.setPermissionCheckHandler(() => false);
    let win: BrowserWindow | null = null;
    const recentFile = join(app.getPath('userData'), 'recent-files.json');
    const recentStore: RecentStore = {
      load: async () => JSON.parse(await readFile(recentFile, 'utf8')) as RecentFile[],
      save: async (files) => {
        await writeFile(recentFile, JSON.stringify(files, null, 2));
        app.clearRecentDocuments();
        for (const f of files) app.addRecentDocument(f.path);
        Menu.setApplicationMenu(buildMenu(files));
      },
    };
    // The engine runs in a utilityProcess (its worker threads inside it): a worker's memory
    // cannot take this process, or the window, down.
    const host = createEngineClient({
      entry: join(here, 'engine-process.js'),
      recentStore,
      // Native dialogs: the path chosen by the user goes to the engine, never parsed here.
      pickPath: async (req) => {
        const opts = { title: req.title, properties: [req.kind === 'directory' ? ('openDirectory' as const) : ('openFile' as const)] };
        const r = win ? await dialog.showOpenDialog(win, opts) : await dialog.showOpenDialog(opts);
        return r.canceled ? null : (r.filePaths[0] ?? null);
      },
    });
    const send = (e: ApiEvent): void => {
      if (win && !win.isDestroyed()) win.webContents.send(IPC_EVENT_CHANNEL, e);
    };
    host.subscribe(send);
    const openViaDialog = async (mode: CheckMode): Promise<void> => {
      const path = await host.pickPath({ kind: 'file', title: mode === 'replay' ? 'Replay an artifact' : 'Verify an artifact' });
      if (path) send({ type: 'open-path', path, mode });
    };
    const buildMenu = (recent: RecentFile[]): Menu => {
      const template: MenuItemConstructorOptions[] = [
        {
          label: 'File',
          submenu: [
            { label: 'Open and Verify…', accelerator: 'CmdOrCtrl+O', click: () => void openViaDialog('verify') },
            { label: 'Open and Replay…', accelerator: 'CmdOrCtrl+Shift+O', click: () => void openViaDialog('replay') },
            {
              label: 'Open Recent',
              submenu: recent.length ? recent.map((r) => ({ label: r.path, click: () => send({ type: 'open-path', path: r.path, mode: 'verify' }) })) : [{ label: 'No recent files', enabled: false }],
            },
            { type: 'separator' },
            { role: 'quit', accelerator: 'CmdOrCtrl+Q' },
          ],
        },
        { label: 'Edit', submenu: [{ role: 'copy' }, { role: 'selectAll' }] },
        { label: 'View', submenu: [{ role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { type: 'separator' }, { role: 'togglefullscreen', accelerator: 'F11' }] },
        { label: 'Window', submenu: [{ role: 'minimize' }, { role: 'close', accelerator: 'CmdOrCtrl+W' }] },
      ];
      return Menu.buildFromTemplate(template);
    };
    Menu.setApplicationMenu(buildMenu(await host.recentFiles()));
    for (const method of API_METHODS) {
      ipcMain.handle(IPC_PREFIX + method, async (e, ...params: unknown[]) => {
        if (!trustedSender(e)) throw new Error('refused: unexpected sender');
        const resp = await dispatch(host, { id: 0, method, params });
        if (!resp) throw new Error('bad request');
        if ('error' in resp) throw new Error(resp.error.message);
        return resp.result;
      });
    }
    win = createWindow();
    app.on('second-instance', (_e, argv) => {
      if (!win) return;
      if (win.isMinimized()) win.restore();
      win.focus();
      // `reprise-app FILE` while running: open FILE in the running window.
      const file = argv.slice(1).find((a) => !a.startsWith('-') && a !== '.' && /\.[A-Za-z0-9]+$/.test(a));
      if (file) send({ type: 'open-path', path: resolve(file), mode: 'verify' });
    });
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) win = createWindow();
    });
    app.on('will-quit', () => host.close());
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
