// The "ProCap Review" output channel: every step and every error is logged here with a time, so
// a user (or a bug report) can see what the extension did.
import * as vscode from 'vscode';

export interface Log {
  info(message: string): void;
  error(message: string, error?: unknown): void;
  show(): void;
}

export function createLog(context: vscode.ExtensionContext): Log {
  const channel = vscode.window.createOutputChannel('ProCap Review', { log: true });
  context.subscriptions.push(channel);
  return {
    info: (message) => channel.info(message),
    error: (message, error) => channel.error(error === undefined ? message : `${message}: ${describeError(error)}`),
    show: () => channel.show(true),
  };
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
