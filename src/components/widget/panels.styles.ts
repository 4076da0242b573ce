// Styles of the widget's history and wallet views: rows that wrap on a phone, facts as label/value pairs, the QR on white.
import { css } from 'lit';
import { panelBox } from '../panel-box.styles';

export const panelStyles = css`
  h2 {
    font-size: 1.25em;
    margin-block-end: 0.75rem;
  }
  h3 {
    font-size: 1.1em;
  }
  h4 {
    font-size: 1em;
    margin-block-start: 0.75rem;
  }
  .history,
  .wallets,
  .balances {
    list-style: none;
    padding: 0;
    margin: 0;
    display: grid;
    gap: 0.5rem;
  }
  .history .row {
    display: grid;
    gap: 0.25rem;
    width: 100%;
    text-align: start;
    font-weight: 400;
    justify-content: stretch;
  }
  .row-head {
    display: flex;
    flex-wrap: wrap;
    justify-content: space-between;
    gap: 0.5rem;
  }
  .row-amounts,
  .mono {
    overflow-wrap: anywhere;
  }
  .mono {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  }
  .facts {
    display: grid;
    gap: 0.5rem;
    margin: 0 0 1rem;
  }
  .facts > div {
    display: grid;
    grid-template-columns: minmax(8rem, 12rem) minmax(0, 1fr);
    gap: 0.25rem 1rem;
  }
  .facts dt {
    font-weight: 600;
  }
  .facts dd {
    margin: 0;
    min-width: 0;
    overflow-wrap: anywhere;
  }
  .back {
    margin-block-end: 0.5rem;
  }
  ${panelBox('.wallet', { gap: '0.5rem', padding: '1rem', border: 'solid' })}
  .qr {
    justify-self: start;
    margin: 0;
    background: #ffffff;
    border-radius: var(--_radius);
  }
  .qr svg {
    display: block;
    width: 10rem;
    height: 10rem;
    max-width: 100%;
    shape-rendering: crispEdges;
  }
  .withdraw,
  .confirm,
  .sent {
    display: grid;
    gap: 1rem;
  }
  @media (max-width: 30rem) {
    .facts > div {
      grid-template-columns: minmax(0, 1fr);
    }
  }
`;
