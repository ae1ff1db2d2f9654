// The CodeMirror look of every editor on the page (buffer, diff, JSON): one dark theme
// and one highlight style, using the page's CSS variables (style.css) so the editors
// and the rest of the page agree.
import { EditorView } from '@codemirror/view';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags as t } from '@lezer/highlight';

export const editorTheme = EditorView.theme(
  {
    '&': {
      color: 'var(--code-text)',
      backgroundColor: 'var(--code-bg)',
      height: '100%',
      fontSize: '13px',
    },
    '&.cm-focused': { outline: 'none' },
    '.cm-scroller': {
      fontFamily: 'var(--mono)',
      lineHeight: '1.6',
    },
    '.cm-content': { caretColor: 'var(--accent)', padding: '8px 0' },
    '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--accent)', borderLeftWidth: '2px' },
    '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection':
      { backgroundColor: 'var(--selection)' },
    '.cm-activeLine': { backgroundColor: 'var(--active-line)' },
    '.cm-gutters': {
      backgroundColor: 'var(--code-bg)',
      color: 'var(--text-faint)',
      border: 'none',
      paddingRight: '4px',
    },
    '.cm-activeLineGutter': { backgroundColor: 'transparent', color: 'var(--text-dim)' },
    '.cm-lineNumbers .cm-gutterElement': { padding: '0 10px 0 14px', minWidth: '36px' },
    '.cm-foldPlaceholder': {
      backgroundColor: 'var(--bg-3)',
      border: 'none',
      color: 'var(--text-dim)',
    },
    '.cm-matchingBracket': { backgroundColor: 'rgba(122, 162, 247, 0.18)', outline: 'none' },
    '.cm-searchMatch': { backgroundColor: 'rgba(224, 175, 104, 0.25)' },
    '.cm-panels': { backgroundColor: 'var(--bg-2)', color: 'var(--text)' },
    '.cm-panels.cm-panels-top': { borderBottom: '1px solid var(--line)' },
    '.cm-tooltip': { backgroundColor: 'var(--bg-2)', border: '1px solid var(--line)' },
    // Whitespace made visible (highlightWhitespace): faint, never louder than code.
    '.cm-highlightSpace': {
      backgroundImage: 'radial-gradient(circle at 50% 55%, var(--ws) 12%, transparent 14%)',
    },
    '.cm-highlightTab': {
      backgroundImage:
        'url(\'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg" width="200" height="20"><path stroke="%23475266" stroke-width="1.2" fill="none" d="M2 10H196M190 5L196 10L190 15"/></svg>\')',
      backgroundSize: 'auto 100%',
      backgroundPosition: 'right 90%',
      backgroundRepeat: 'no-repeat',
    },
    '.cm-specialChar': { color: 'var(--ws-strong)' },
    // Merge view (@codemirror/merge).
    '.cm-changedLine': { backgroundColor: 'var(--add-bg) !important' },
    '&.cm-merge-a .cm-changedLine, .cm-deletedChunk': { backgroundColor: 'var(--del-bg) !important' },
    '.cm-insertedLine, .cm-changedLine': { backgroundColor: 'var(--add-bg)' },
    '.cm-deletedLine': { backgroundColor: 'var(--del-bg)' },
    '.cm-changedText': { background: 'var(--add-strong) !important', borderRadius: '2px' },
    '&.cm-merge-a .cm-changedText, .cm-deletedChunk .cm-deletedText, .cm-deletedText': {
      background: 'var(--del-strong) !important',
      borderRadius: '2px',
    },
    '.cm-deletedChunk del': { textDecoration: 'none' },
    '.cm-changeGutter': { width: '3px', paddingLeft: '0' },
    '.cm-changedLineGutter': { background: 'var(--ok)' },
    '&.cm-merge-a .cm-changedLineGutter, .cm-deletedLineGutter': { background: 'var(--err)' },
    '.cm-collapsedLines': {
      background: 'var(--bg-2)',
      color: 'var(--text-dim)',
      fontFamily: 'var(--sans)',
      fontSize: '12px',
      padding: '3px 14px',
      borderTop: '1px solid var(--line)',
      borderBottom: '1px solid var(--line)',
    },
    '.cm-collapsedLines:before, .cm-collapsedLines:after': { display: 'none' },
  },
  { dark: true },
);

const highlightStyle = HighlightStyle.define([
  { tag: [t.keyword, t.controlKeyword, t.moduleKeyword, t.operatorKeyword, t.definitionKeyword, t.modifier], color: '#c4a7ff' },
  { tag: [t.string, t.special(t.string), t.character, t.regexp], color: '#a5d98a' },
  { tag: [t.number, t.bool, t.null, t.atom], color: '#ffad70' },
  { tag: [t.comment, t.lineComment, t.blockComment, t.docComment], color: '#66758c', fontStyle: 'italic' },
  { tag: [t.function(t.variableName), t.function(t.propertyName), t.macroName], color: '#82b1ff' },
  { tag: [t.definition(t.function(t.variableName))], color: '#82b1ff', fontWeight: '500' },
  { tag: [t.typeName, t.className, t.namespace, t.standard(t.typeName)], color: '#5fd1e0' },
  { tag: [t.propertyName, t.attributeName], color: '#7fdbc4' },
  { tag: [t.definition(t.propertyName)], color: '#7fdbc4' },
  { tag: [t.operator, t.derefOperator, t.arithmeticOperator, t.logicOperator, t.compareOperator], color: '#8fd6ff' },
  { tag: [t.punctuation, t.separator, t.bracket, t.paren, t.brace, t.squareBracket], color: '#9aa7c2' },
  { tag: [t.variableName], color: 'var(--code-text)' },
  { tag: [t.self, t.special(t.variableName)], color: '#ff8fa3' },
  { tag: [t.tagName], color: '#ff8fa3' },
  { tag: [t.meta, t.annotation, t.processingInstruction], color: '#e8c07d' },
  { tag: [t.heading], color: '#82b1ff', fontWeight: '600' },
  { tag: [t.strong], fontWeight: '600' },
  { tag: [t.emphasis], fontStyle: 'italic' },
  { tag: [t.link, t.url], color: '#7fdbc4', textDecoration: 'underline' },
  { tag: [t.escape], color: '#ffad70' },
  { tag: [t.invalid], color: '#ff6b6b' },
]);

export const highlighting = syntaxHighlighting(highlightStyle);
