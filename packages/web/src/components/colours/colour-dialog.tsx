import { useState } from 'react';
import { Accessibility } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { setColours, useColours } from '@/lib/colours';
import { useT } from '@/i18n';

/**
 * Colour dialog (docs/screens.md "Browser storage"): two pickers; every change is stored and applied at once, so Save and
 * Cancel both only close the dialog.
 */
export function ColourDialog({ triggerClassName }: { triggerClassName?: string }) {
  const { t } = useT();
  const [open, setOpen] = useState(false);
  const colours = useColours();
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" className={triggerClassName}>
          <Accessibility aria-hidden="true" />
          {t('colours.open')}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('colours.open')}</DialogTitle>
          <DialogDescription>{t('colours.description')}</DialogDescription>
        </DialogHeader>
        <div className="grid gap-4">
          <div className="flex items-center justify-between gap-4">
            <Label htmlFor="colour-select-background">{t('colours.background')}</Label>
            <input
              id="colour-select-background"
              type="color"
              className="h-10 w-16 cursor-pointer rounded border border-input bg-background p-1"
              value={colours.selectBackground}
              onChange={(e) => setColours({ selectBackground: e.target.value })}
            />
          </div>
          <div className="flex items-center justify-between gap-4">
            <Label htmlFor="colour-select-text">{t('colours.text')}</Label>
            <input
              id="colour-select-text"
              type="color"
              className="h-10 w-16 cursor-pointer rounded border border-input bg-background p-1"
              value={colours.selectText}
              onChange={(e) => setColours({ selectText: e.target.value })}
            />
          </div>
          <div className="custom-colours rounded-md px-3 py-2 text-sm" aria-hidden="true">
            {t('colours.preview')}
          </div>
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => setOpen(false)}>
            {t('common.cancel')}
          </Button>
          <Button onClick={() => setOpen(false)}>{t('common.save')}</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
