import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useT } from '@/i18n';

/** The longest screen the gateway shows (docs/api.md "Voting by USSD"). */
export const USSD_SCREEN_MAX = 182;

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'] as const;

type Phase = 'idle' | 'waiting' | 'open' | 'ended';

/** One answer of the callback: `CON …` waits for input, `END …` ends the session. */
export function parseUssdAnswer(answer: string): { open: boolean; screen: string } {
  if (answer.startsWith('CON ')) return { open: true, screen: answer.slice(4) };
  if (answer.startsWith('END ')) return { open: false, screen: answer.slice(4) };
  return { open: false, screen: answer };
}

const newSessionId = () => `kura-sim-${crypto.randomUUID()}`;

/**
 * A phone for rehearsals (docs/screens.md "USSD"): it posts to the real callback exactly as
 * Africa's Talking does (form-encoded: one `sessionId`, the dialling `phoneNumber`, and `text`,
 * every input so far joined by `*`), shows each screen, and sends what is typed or keyed in.
 */
export function UssdSimulator({ callbackPath }: { callbackPath: string }) {
  const { t } = useT();
  const id = useId();
  const [phone, setPhone] = useState('');
  const [input, setInput] = useState('');
  const [phase, setPhase] = useState<Phase>('idle');
  const [screen, setScreen] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const session = useRef<{ id: string; inputs: string[] }>({ id: '', inputs: [] });
  const inputRef = useRef<HTMLInputElement>(null);

  async function post(inputs: string[]) {
    setPhase('waiting');
    setFailure(null);
    const body = new URLSearchParams({
      sessionId: session.current.id,
      serviceCode: 'simulator',
      phoneNumber: phone.trim(),
      text: inputs.join('*'),
    });
    try {
      const res = await fetch(callbackPath, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: body.toString(),
        credentials: 'omit',
      });
      const text = await res.text();
      if (!res.ok) {
        setFailure(t('admin.ussd.sim.failed', { status: String(res.status) }));
        setPhase('ended');
        return;
      }
      const answer = parseUssdAnswer(text);
      session.current.inputs = inputs;
      setScreen(answer.screen);
      setPhase(answer.open ? 'open' : 'ended');
    } catch {
      setFailure(t('admin.ussd.sim.unreachable'));
      setPhase('ended');
    }
  }

  // Each new screen that waits for input puts the focus on the answer (enabled by then).
  useEffect(() => {
    if (phase === 'open') inputRef.current?.focus();
  }, [phase, screen]);

  const dial = (e: FormEvent) => {
    e.preventDefault();
    if (!phone.trim()) return;
    session.current = { id: newSessionId(), inputs: [] };
    setInput('');
    setScreen('');
    void post([]);
  };

  const send = (e: FormEvent) => {
    e.preventDefault();
    if (phase !== 'open') return;
    const value = input.trim();
    setInput('');
    void post([...session.current.inputs, value]);
  };

  const hangUp = () => {
    session.current = { id: '', inputs: [] };
    setPhase('idle');
    setScreen('');
    setInput('');
    setFailure(null);
  };

  const active = phase === 'open' || phase === 'waiting';
  const state =
    phase === 'waiting'
      ? t('admin.ussd.sim.waiting')
      : phase === 'open'
        ? t('admin.ussd.sim.open')
        : phase === 'ended'
          ? t('admin.ussd.sim.ended')
          : t('admin.ussd.sim.idle');

  return (
    <div className="grid gap-4 md:grid-cols-[minmax(0,20rem)_minmax(0,1fr)] md:items-start">
      <div className="grid gap-3 rounded-2xl border-4 border-foreground/80 bg-card p-3 shadow-md">
        <form onSubmit={dial} className="grid gap-2">
          <Label htmlFor={`${id}-phone`}>{t('admin.ussd.sim.phone')}</Label>
          <div className="flex gap-2">
            <Input
              id={`${id}-phone`}
              type="tel"
              inputMode="tel"
              autoComplete="off"
              placeholder="+254712345678"
              value={phone}
              disabled={active}
              aria-describedby={`${id}-phone-hint`}
              onChange={(e) => setPhone(e.target.value)}
            />
            <Button type="submit" disabled={active || !phone.trim()}>
              {t('admin.ussd.sim.dial')}
            </Button>
          </div>
          <p id={`${id}-phone-hint`} className="text-xs text-muted-foreground">
            {t('admin.ussd.sim.phoneHint')}
          </p>
        </form>
        <section
          aria-labelledby={`${id}-screen-h`}
          className="grid min-h-48 content-start gap-1 rounded-md border border-border bg-emerald-50 p-3 text-emerald-950"
        >
          <h3 id={`${id}-screen-h`} className="sr-only">
            {t('admin.ussd.sim.screen')}
          </h3>
          <p className="text-xs text-emerald-900" data-testid="ussd-state">
            {state}
          </p>
          <pre
            role="log"
            aria-live="polite"
            aria-label={t('admin.ussd.sim.screen')}
            data-testid="ussd-screen"
            className="whitespace-pre-wrap break-words font-mono text-sm"
          >
            {screen}
          </pre>
          {screen && (
            <p className="text-xs text-emerald-900">
              {t('admin.ussd.sim.length', { length: String(screen.length), max: String(USSD_SCREEN_MAX) })}
            </p>
          )}
        </section>
        {failure && (
          <p role="alert" className="text-sm text-destructive">
            {failure}
          </p>
        )}
        <form onSubmit={send} className="grid gap-2">
          <Label htmlFor={`${id}-input`}>{t('admin.ussd.sim.answer')}</Label>
          <div className="flex gap-2">
            <Input
              ref={inputRef}
              id={`${id}-input`}
              inputMode="numeric"
              autoComplete="off"
              maxLength={30}
              value={input}
              disabled={phase !== 'open'}
              onChange={(e) => setInput(e.target.value)}
            />
            <Button type="submit" disabled={phase !== 'open'}>
              {t('admin.ussd.sim.send')}
            </Button>
          </div>
          <div role="group" aria-label={t('admin.ussd.sim.keypad')} className="grid grid-cols-3 gap-2">
            {KEYS.map((key) => (
              <Button
                key={key}
                variant="outline"
                className="h-11 font-mono text-lg"
                disabled={phase !== 'open'}
                aria-label={key === '*' ? t('admin.ussd.sim.star') : key === '#' ? t('admin.ussd.sim.hash') : key}
                onClick={() => setInput((v) => (v.length < 30 ? v + key : v))}
              >
                {key}
              </Button>
            ))}
          </div>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" disabled={phase !== 'open' || input === ''} onClick={() => setInput((v) => v.slice(0, -1))}>
              {t('admin.ussd.sim.delete')}
            </Button>
            <Button variant="destructive" disabled={phase === 'idle'} onClick={hangUp}>
              {t('admin.ussd.sim.hangUp')}
            </Button>
          </div>
        </form>
      </div>
      <div className="grid gap-2 text-sm text-muted-foreground">
        <p>{t('admin.ussd.sim.howTo')}</p>
        <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950">{t('admin.ussd.sim.real')}</p>
      </div>
    </div>
  );
}
