/**
 * The ONE Markdown renderer of the app. Loaded lazily (see lazy-markdown.tsx) so the first screen
 * does not download react-markdown. Links only keep the schemes of docs/product-rules.md, Validation and limits and open in a new tab.
 */
import ReactMarkdown from 'react-markdown';
import { safeMarkdownUrl } from './markdown-url';

export interface MarkdownProps {
  children: string;
  className?: string;
}

export default function Markdown({ children, className = '' }: MarkdownProps) {
  return (
    <div className={`markdown ${className}`}>
      <ReactMarkdown
        urlTransform={safeMarkdownUrl}
        components={{
          a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer" />,
        }}
      >
        {children}
      </ReactMarkdown>
    </div>
  );
}
