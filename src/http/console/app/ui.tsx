/** The pieces every screen is made of: its heading and title, a read from the API, its errors. */
import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef, useState } from "preact/hooks";
import { ApiError, type Session } from "./api.js";
import { t } from "./messages.js";
import { formatAmount, type Units } from "./money.js";

/** The merchant's display units, by asset (its configuration's items). */
export type UnitsByAsset = ReadonlyMap<string, Units>;

/** What each screen is given. */
export interface ScreenProps {
  session: Session;
  units: UnitsByAsset;
}

/** An asset the configuration does not name is shown in minor units, under its own name. */
export const unitsOf = (units: UnitsByAsset, asset: string): Units => units.get(asset) ?? { label: asset, fractionalDigits: 0 };

export const Money = ({ amount, asset, units }: { amount: number; asset: string; units: UnitsByAsset }) => (
  <span class="money">{formatAmount(amount, unitsOf(units, asset))}</span>
);

export const When = ({ at }: { at: string | null | undefined }) =>
  at ? <time dateTime={at}>{new Date(at).toLocaleString()}</time> : <span>{t("never")}</span>;

/** Screens shown since the page loaded. */
let shown = 0;

/**
 * A screen: its heading, which is the tab's title too, and which takes the focus when the screen
 * is shown after another, so a keyboard or screen reader user hears where a link led.
 */
export function Screen({ title, children }: { title: string; children: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · ${t("console")}`;
  }, [title]);
  useEffect(() => {
    // Not on the page's first screen, where the browser's own start is where a reader begins.
    if (shown++ > 0) heading.current?.focus();
  }, []);
  return (
    <section>
      <h2 tabIndex={-1} ref={heading}>
        {title}
      </h2>
      {children}
    </section>
  );
}

export const ErrorText = ({ error }: { error: unknown }) =>
  error ? (
    <p class="error" role="alert">
      {error instanceof ApiError || error instanceof Error ? error.message : JSON.stringify(error)}
    </p>
  ) : null;

/** A form's field `name` as typed, trimmed ("" when it has none). */
export function fieldText(form: HTMLFormElement, name: string): string {
  const value = new FormData(form).get(name);
  return typeof value === "string" ? value.trim() : "";
}

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  reload: () => void;
}

/** Reads `load` when shown and whenever `keys` change; `reload` reads it again. */
export function useLoad<T>(load: () => Promise<T>, keys: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown }>({});
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    load().then(
      (data) => current && setState({ data }),
      (error: unknown) => current && setState({ error }),
    );
    return () => {
      current = false;
    };
    // `keys` are what `load` reads.
  }, [...keys, round]);
  return { data: state.data, error: state.error, reload: () => setRound((n) => n + 1) };
}

export const Loading = () => (
  <p role="status" class="loading">
    {t("loading")}
  </p>
);

/**
 * A question asked before a change: confirm it, or decline it (`decline` names that button). It
 * takes the focus, since it replaces the control that asked for it.
 */
export function Confirm({
  question,
  onConfirm,
  onDecline,
  decline,
}: {
  question: string;
  onConfirm: () => void;
  onDecline: () => void;
  decline: string;
}) {
  const id = useId();
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), []);
  return (
    <div class="confirm" role="alertdialog" aria-labelledby={id}>
      <p id={id}>{question}</p>
      <button type="button" ref={first} onClick={onConfirm}>
        {t("confirm")}
      </button>{" "}
      <button type="button" class="secondary" onClick={onDecline}>
        {decline}
      </button>
    </div>
  );
}

/**
 * A ref for the control a Confirm replaces while `asking`: it takes the focus back when the
 * question is answered, where a keyboard user left it.
 */
export function useFocusAfterAsking<T extends HTMLElement>(asking: boolean) {
  const control = useRef<T>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current && !asking) control.current?.focus();
    asked.current = asking;
  }, [asking]);
  return control;
}
