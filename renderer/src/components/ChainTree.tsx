import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { ChainNode } from '../../../shared/report';
import { repeatedLabels } from '../lib/report-words';
import { Shown } from './Shown';

export const STATUS_TEXT: Record<ChainNode['status'], string> = {
  match: '✓ match',
  mismatch: '✗ mismatch',
  missing: '? missing',
  unresolved: '… unresolved',
};

export interface TreeItem {
  node: ChainNode;
  children: TreeItem[];
  parent: TreeItem | null;
}

/**
 * The chain as a tree in which each node appears once: the roots are the nodes nothing
 * else is computed from (a dump's trust decision), and a node's children are what it is
 * computed from (its `parents`). A node reached again through another path (an artifact
 * named by two buffers) is not drawn twice; cycles cannot recurse.
 */
export function buildTree(chain: ChainNode[]): TreeItem[] {
  const byId = new Map(chain.map((n) => [n.id, n]));
  const named = new Set(chain.flatMap((n) => n.parents.filter((p) => p !== n.id)));
  const placed = new Set<string>();
  const place = (n: ChainNode, parent: TreeItem | null): TreeItem => {
    placed.add(n.id);
    const item: TreeItem = { node: n, children: [], parent };
    for (const p of n.parents) {
      const pn = byId.get(p);
      if (pn && !placed.has(p)) item.children.push(place(pn, item));
    }
    return item;
  };
  const roots: TreeItem[] = [];
  for (const n of chain) if (!named.has(n.id) && !placed.has(n.id)) roots.push(place(n, null));
  // Whatever only a cycle reaches becomes a root of its own.
  for (const n of chain) if (!placed.has(n.id)) roots.push(place(n, null));
  return roots;
}

/**
 * A hash cut to its ends, for the tree's dense rows only: selecting the node shows its
 * recorded and recomputed values whole, with Copy buttons, beside the tree (ChainView's node
 * detail), so the full value is one click away and never only in a tooltip.
 */
export function short(h: string | null): string {
  if (!h) return '—';
  return h.length > 24 ? `${h.slice(0, 15)}…${h.slice(-6)}` : h;
}

function visible(items: TreeItem[], collapsed: Set<string>, out: TreeItem[] = []): TreeItem[] {
  for (const t of items) {
    out.push(t);
    if (t.children.length && !collapsed.has(t.node.id)) visible(t.children, collapsed, out);
  }
  return out;
}

/**
 * One row of the tree: status in words, the label (with the node's id when another node has
 * the same label: a TG manifest labels each artifact "artifact", its id is its hash) and
 * the node's hash cut short, unless that hash is the id already shown.
 */
function NodeRow({ t, open, withId }: { t: TreeItem; open: boolean; withId: boolean }) {
  const n = t.node;
  const hash = n.recomputed ?? n.recorded;
  return (
    <>
      {t.children.length > 0 && (
        <span aria-hidden="true" className="twisty">
          {open ? '▾' : '▸'}
        </span>
      )}{' '}
      <span className={`status-badge ${n.status}`}>{STATUS_TEXT[n.status]}</span>{' '}
      <span className="node-label">
        <Shown text={n.label} />
      </span>
      {withId && <span className="mono small node-id"> {short(n.id)}</span>}
      {!(withId && hash === n.id) && <span className="mono muted small"> {short(hash)}</span>}
    </>
  );
}

interface TreeMoves {
  move: (t: TreeItem | undefined) => void;
  toggle: (id: string, open: boolean) => void;
  select: (n: ChainNode) => void;
}

/** What each key does on the current item (the WAI-ARIA tree pattern's keys). */
function keyActions(
  current: TreeItem,
  flat: TreeItem[],
  collapsed: Set<string>,
  { move, toggle, select }: TreeMoves,
): Record<string, () => void> {
  const i = flat.indexOf(current);
  const id = current.node.id;
  const open = current.children.length > 0 && !collapsed.has(id);
  return {
    ArrowDown: () => move(flat[i + 1]),
    ArrowUp: () => move(flat[i - 1]),
    Home: () => move(flat[0]),
    End: () => move(flat[flat.length - 1]),
    ArrowRight: () => (current.children.length === 0 ? undefined : open ? move(current.children[0]) : toggle(id, true)),
    ArrowLeft: () => (open ? toggle(id, false) : move(current.parent ?? undefined)),
    Enter: () => select(current.node),
    ' ': () => select(current.node),
  };
}

/**
 * The WAI-ARIA tree pattern: one Tab stop (roving tabindex), Up/Down move, Right opens or
 * enters a node, Left closes it or goes to its parent, Home/End, Enter/Space select.
 */
export function ChainTree({
  chain,
  selected,
  onSelect,
}: {
  chain: ChainNode[];
  selected: string | null;
  onSelect: (n: ChainNode) => void;
}) {
  const tree = useMemo(() => buildTree(chain), [chain]);
  const repeated = useMemo(() => repeatedLabels(chain), [chain]);
  const index = useMemo(() => new Map(chain.map((n, i) => [n.id, i])), [chain]);
  // Node ids may hold spaces (ZIP entry names): element ids are made from positions instead.
  const baseId = useId();
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const [active, setActive] = useState<string | null>(null);
  const refs = useRef(new Map<string, HTMLLIElement>());
  const flat = visible(tree, collapsed);
  const current = flat.find((t) => t.node.id === active) ?? flat.find((t) => t.node.id === selected) ?? flat[0];
  const move = (t: TreeItem | undefined): void => {
    if (!t) return;
    setActive(t.node.id);
    refs.current.get(t.node.id)?.focus();
  };
  const toggle = (id: string, open: boolean): void => {
    const next = new Set(collapsed);
    if (open) next.delete(id);
    else next.add(id);
    setCollapsed(next);
  };
  const onKey = (e: KeyboardEvent): void => {
    if (!current) return;
    const act = keyActions(current, flat, collapsed, { move, toggle, select: onSelect })[e.key];
    if (!act) return;
    e.preventDefault();
    act();
  };
  const render = (t: TreeItem, depth: number) => {
    const n = t.node;
    const open = t.children.length > 0 && !collapsed.has(n.id);
    // The item's name is its own row (aria-labelledby), never its subtree's text.
    const rowId = `${baseId}-${index.get(n.id)}`;
    return (
      <li
        key={n.id}
        role="treeitem"
        aria-labelledby={rowId}
        aria-selected={selected === n.id}
        aria-level={depth + 1}
        aria-expanded={t.children.length > 0 ? open : undefined}
        tabIndex={current?.node.id === n.id ? 0 : -1}
        ref={(el) => {
          if (el) refs.current.set(n.id, el);
          else refs.current.delete(n.id);
        }}
        onFocus={(e) => {
          if (e.target === e.currentTarget) setActive(n.id);
        }}
        data-node={n.id}
      >
        <div
          id={rowId}
          className={`tree-row ${n.status}${selected === n.id ? ' chosen' : ''}`}
          onClick={() => {
            move(t);
            onSelect(n);
          }}
        >
          <NodeRow t={t} open={open} withId={repeated.has(n.label)} />
        </div>
        {open && <ul role="group">{t.children.map((c) => render(c, depth + 1))}</ul>}
      </li>
    );
  };
  return (
    <ul
      role="tree"
      aria-label="Hash chain: each node with what it is computed from"
      className="tree"
      data-testid="chain-tree"
      onKeyDown={onKey}
    >
      {tree.map((t) => render(t, 0))}
    </ul>
  );
}
