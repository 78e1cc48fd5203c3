// The gamec extension: the grammar and language configuration are declared in package.json;
// this file starts `gamec lsp` (a language server on standard input and output) for the
// game and board files, with the binary named by the `gamec.path` setting.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

/** @type {LanguageClient | undefined} */
let client;

/** The client for `<gamec.path> lsp`, on the gamec files of the workspace and unsaved ones. */
function createClient() {
  const command = vscode.workspace.getConfiguration('gamec').get('path') || 'gamec';
  const serverOptions = { command, args: ['lsp'], transport: TransportKind.stdio };
  const clientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'gamec' },
      { scheme: 'untitled', language: 'gamec' },
    ],
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher('**/*.{game,board}'),
    },
  };
  return new LanguageClient('gamec', 'gamec language server', serverOptions, clientOptions);
}

/** Starts the client; a binary that cannot be run is said once, with where to set it. */
async function start() {
  try {
    client = createClient();
    await client.start();
  } catch (err) {
    const command = vscode.workspace.getConfiguration('gamec').get('path') || 'gamec';
    vscode.window.showErrorMessage(
      `gamec: cannot start \`${command} lsp\` (${err && err.message ? err.message : err}). ` +
        'Install gamec (`cargo install --path compiler`) or set `gamec.path` to the binary.'
    );
  }
}

async function stop() {
  if (client) {
    const running = client;
    client = undefined;
    try {
      await running.stop();
    } catch (_) {
      // A server that never started has nothing to stop.
    }
  }
}

async function restart() {
  await stop();
  await start();
}

function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('gamec.restartServer', restart),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('gamec.path')) {
        restart();
      }
    }),
    { dispose: () => stop() }
  );
  return start();
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };
