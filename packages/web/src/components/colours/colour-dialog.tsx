import { useState } from 'react';
import { Accessibility } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { setColours, useColours } from '@/lib/colours';

/**
 * Colour dialog (docs/screens.md "Browser storage"): two pickers; every change is stored and applied at once, so Save and
 * Cancel both only close the dialog.
 */
export function ColourDialog({ triggerClassName }: { triggerClassName?: string }) {
  const [open, setOpen] = useState(false);
  const colours = useColours();
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" className={triggerClassName}>
          <Accessibility aria-hidden="true" />
          Customize Colors
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Customize Colors</DialogTitle>
          <DialogDescription>Choose the colours of the selection boxes. They are kept in this browser.</DialogDescription>
        </DialogHeader>
        <div className="grid gap-4">
          <div className="flex items-center justify-between gap-4">
            <Label htmlFor="colour-select-background">Select Background Color</Label>
            <input
              id="colour-select-background"
              type="color"
              className="h-10 w-16 cursor-pointer rounded border border-input bg-background p-1"
              value={colours.selectBackground}
              onChange={(e) => setColours({ selectBackground: e.target.value })}
            />
          </div>
          <div className="flex items-center justify-between gap-4">
            <Label htmlFor="colour-select-text">Select Text Color</Label>
            <input
              id="colour-select-text"
              type="color"
              className="h-10 w-16 cursor-pointer rounded border border-input bg-background p-1"
              value={colours.selectText}
              onChange={(e) => setColours({ selectText: e.target.value })}
            />
          </div>
          <div className="custom-colours rounded-md px-3 py-2 text-sm" aria-hidden="true">
            Preview
          </div>
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button onClick={() => setOpen(false)}>Save</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
