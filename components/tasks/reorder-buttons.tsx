import { ArrowDown, ArrowUp, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";

/** Move up, move down and remove for item `index` of `count` in an ordered list; `name` labels the buttons ("Move <name> up"). */
export function ReorderButtons({
  index,
  count,
  name,
  onMove,
  onRemove,
}: {
  index: number;
  count: number;
  name: string;
  onMove: (index: number, by: -1 | 1) => void;
  onRemove: () => void;
}) {
  return (
    <div className="flex gap-1">
      <Button type="button" size="sm" variant="ghost" disabled={index === 0} onClick={() => onMove(index, -1)} aria-label={`Move ${name} up`}>
        <ArrowUp aria-hidden size={14} />
      </Button>
      <Button type="button" size="sm" variant="ghost" disabled={index === count - 1} onClick={() => onMove(index, 1)} aria-label={`Move ${name} down`}>
        <ArrowDown aria-hidden size={14} />
      </Button>
      <Button type="button" size="sm" variant="ghost" onClick={onRemove} aria-label={`Remove ${name}`}>
        <Trash2 aria-hidden size={14} />
      </Button>
    </div>
  );
}
