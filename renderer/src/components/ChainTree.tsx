import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { ChainNode } from '../../../shared/report';

export const STATUS_TEXT: Record<ChainNode['status'], string> = { match: '✓ match', mismatch: '✗ mismatch', missing: '? missing', unresolved: '… unresolved' };

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

function short(h: string | null): string {
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
 * The WAI-ARIA tree pattern: one Tab stop (roving tabindex), Up/Down move, Right opens or
 * enters a node, Left closes it or goes to its parent, Home/End, Enter/Space select.
 */
export function ChainTree({ chain, selected, onSelect }: { chain: ChainNode[]; selected: string | null; onSelect: (n: ChainNode) => void }) {
  const tree = useMemo(() => buildTree(chain), [chain]);
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
    const i = flat.indexOf(current);
    const id = current.node.id;
    const open = current.children.length > 0 && !collapsed.has(id);
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(flat[i + 1]),
      ArrowUp: () => move(flat[i - 1]),
      Home: () => move(flat[0]),
      End: () => move(flat[flat.length - 1]),
      ArrowRight: () => (current.children.length === 0 ? undefined : open ? move(current.children[0]) : toggle(id, true)),
      ArrowLeft: () => (open ? toggle(id, false) : move(current.parent ?? undefined)),
      Enter: () => onSelect(current.node),
      ' ': () => onSelect(current.node),
    };
    const act = keys[e.key];
    if (!act) return;
    e.preventDefault();
    act();
  };
  const render = (t: TreeItem, depth: number) => {
    const n = t.node;
    const open = t.children.length > 0 && !collapsed.has(n.id);
    return (
      <li
        key={n.id}
        role="treeitem"
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
          className={`tree-row ${n.status}${selected === n.id ? ' chosen' : ''}`}
          onClick={() => {
            move(t);
            onSelect(n);
          }}
        >
          {t.children.length > 0 && <span aria-hidden="true" className="twisty">{open ? '▾' : '▸'}</span>} <span className={`status-badge ${n.status}`}>{STATUS_TEXT[n.status]}</span> <span className="node-label">{n.label}</span>{' '}
          <span className="mono muted small">{short(n.recomputed ?? n.recorded)}</span>
        </div>
        {open && <ul role="group">{t.children.map((c) => render(c, depth + 1))}</ul>}
      </li>
    );
  };
  return (
    <ul role="tree" aria-label="Hash chain: each node with what it is computed from" className="tree" data-testid="chain-tree" onKeyDown={onKey}>
      {tree.map((t) => render(t, 0))}
    </ul>
  );
}
