/**
 * A chart of payments and their amount per bucket (uPlot, drawn on a canvas), with the same figures
 * as a table beside it for screen readers and for reading exact numbers.
 */
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { t } from "../messages.js";
import { formatAmount, type Units } from "../money.js";

export interface ChartRow {
  start: Date;
  label: string;
  paid: number;
  paidAmount: number;
}

export function PaymentsChart({ rows, units, title }: { rows: ChartRow[]; units: Units; title: string }) {
  const canvas = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const host = canvas.current;
    if (!host) return;
    const plot = new uPlot(
      {
        width: Math.max(280, host.clientWidth),
        height: 220,
        series: [
          { value: (_plot, seconds: number) => new Date(seconds * 1000).toLocaleString() },
          { label: t("payments"), stroke: "#0b5e5a", width: 2, scale: "count" },
          {
            label: t("paidAmountLabel"),
            stroke: "#8a4b08",
            width: 2,
            dash: [6, 4],
            scale: "amount",
            value: (_plot, minor: number) => formatAmount(minor, units),
          },
        ],
        axes: [
          {},
          { scale: "count" },
          { scale: "amount", side: 1, size: 90, values: (_plot, ticks) => ticks.map((minor) => formatAmount(minor, units)) },
        ],
      },
      [rows.map((row) => row.start.getTime() / 1000), rows.map((row) => row.paid), rows.map((row) => row.paidAmount)],
      host,
    );
    return () => plot.destroy();
  }, [rows, units]);
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <div ref={canvas} aria-hidden="true" />
      <details>
        <summary>{t("figures")}</summary>
        <table class="chart-figures">
          <caption class="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">{t("period")}</th>
              <th scope="col">{t("payments")}</th>
              <th scope="col">{t("paidAmountLabel")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.start.getTime()}>
                <th scope="row">{row.label}</th>
                <td>{row.paid}</td>
                <td>{formatAmount(row.paidAmount, units)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
