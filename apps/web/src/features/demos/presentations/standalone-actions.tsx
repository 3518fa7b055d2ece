import { RotateCcw, Share2 } from 'lucide-react';

/** Clear and Share buttons under a standalone phone or social chat. */
export const StandaloneActions = ({ onClear, onShare }: { onClear: () => void; onShare?: () => void }) => (
  <div className="flex gap-2">
    <button
      type="button"
      onClick={onClear}
      className="inline-flex items-center gap-1 rounded-full bg-black/60 px-4 py-2 text-sm text-white hover:bg-black/75"
    >
      <RotateCcw size={14} aria-hidden="true" /> Clear
    </button>
    {onShare ? (
      <button
        type="button"
        onClick={onShare}
        className="inline-flex items-center gap-1 rounded-full bg-black/60 px-4 py-2 text-sm text-white hover:bg-black/75"
      >
        <Share2 size={14} aria-hidden="true" /> Share
      </button>
    ) : null}
  </div>
);
