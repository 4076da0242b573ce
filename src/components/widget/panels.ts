// The widget's own views, fetched when the History or Wallet tab first opens (the address check and QR encoder with them).
export { HistoryPanel } from '../history/history-view';
export { WalletPanel } from '../wallet/wallet-panel';
