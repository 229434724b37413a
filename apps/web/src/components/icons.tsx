/** Inline SVG icons (no emoji: many Linux desktops and servers lack an emoji font). */
const base = { width: '1em', height: '1em', viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round' as const, strokeLinejoin: 'round' as const, 'aria-hidden': true };

export function ThumbUp() {
  return (
    <svg {...base}>
      <path d="M7 10v11H4a1 1 0 0 1-1-1v-9a1 1 0 0 1 1-1h3zm0 0 4-8a3 3 0 0 1 3 3v4h5.5a2 2 0 0 1 2 2.3l-1.4 8.4a2 2 0 0 1-2 1.3H7" />
    </svg>
  );
}

export function ThumbDown() {
  return (
    <svg {...base} style={{ transform: 'rotate(180deg)' }}>
      <path d="M7 10v11H4a1 1 0 0 1-1-1v-9a1 1 0 0 1 1-1h3zm0 0 4-8a3 3 0 0 1 3 3v4h5.5a2 2 0 0 1 2 2.3l-1.4 8.4a2 2 0 0 1-2 1.3H7" />
    </svg>
  );
}

/** The brand mark: an arc with a sighting line (a sextant's frame). */
export function BrandMark() {
  return (
    <svg {...base} className="brand-mark">
      <path d="M3 8a12 12 0 0 0 18 0" />
      <path d="M12 3v15" />
      <path d="M12 3 6.5 12.5" />
      <circle cx="12" cy="3" r="1.2" fill="currentColor" />
    </svg>
  );
}

export function ActivityIcon({ kind, negative }: { kind: 'index' | 'feedback' | 'weights' | 'presence'; negative?: boolean }) {
  if (kind === 'feedback') return negative ? <ThumbDown /> : <ThumbUp />;
  if (kind === 'weights')
    return (
      <svg {...base}>
        <path d="M12 3v18M5 7h14M5 7l-3 7a3 3 0 0 0 6 0zM19 7l-3 7a3 3 0 0 0 6 0z" />
      </svg>
    );
  return (
    <svg {...base}>
      <path d="M21 12a9 9 0 1 1-3-6.7M21 3v6h-6" />
    </svg>
  );
}
