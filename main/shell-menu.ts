/**
 * The application menu's template, kept free of Electron's runtime (only its types) so it
 * can be unit-tested; main/index.ts builds the menu from it and supplies the actions.
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { CheckMode, RecentFile } from '../shared/api.js';

export interface MenuActions {
  /** File > Open and Verify… / Open and Replay…: the native dialog. */
  open(mode: CheckMode): void;
  /** File > Open Recent > a file. */
  openRecent(path: string): void;
}

function fileMenu(actions: MenuActions, recent: RecentFile[]): MenuItemConstructorOptions {
  return {
    label: 'File',
    submenu: [
      { label: 'Open and Verify…', accelerator: 'CmdOrCtrl+O', click: () => actions.open('verify') },
      { label: 'Open and Replay…', accelerator: 'CmdOrCtrl+Shift+O', click: () => actions.open('replay') },
      {
        label: 'Open Recent',
        submenu: recent.length
          ? recent.map((r) => ({ label: r.path, click: () => actions.openRecent(r.path) }))
          : [{ label: 'No recent files', enabled: false }],
      },
      { type: 'separator' },
      { role: 'quit', accelerator: 'CmdOrCtrl+Q' },
    ],
  };
}

export function menuTemplate(actions: MenuActions, recent: RecentFile[]): MenuItemConstructorOptions[] {
  return [
    fileMenu(actions, recent),
    // Electron's own Edit menu (undo, redo, cut, copy, paste, select all, and macOS's extras):
    // on macOS a text field edits only through the menu's roles, so a role left out is a
    // shortcut that does nothing there.
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen', accelerator: 'F11' },
      ],
    },
    { label: 'Window', submenu: [{ role: 'minimize' }, { role: 'close', accelerator: 'CmdOrCtrl+W' }] },
  ];
}
