import { Link } from 'react-router';
import { buttonClasses } from '../../components/button';

interface NoticeProps {
  /** 1 when the notice is the whole page (logged out), 2 under the page title. */
  level?: 1 | 2;
  title: string;
  text: string;
  link: { to: string; label: string };
}

/** 'Please Log In' and 'No Interview History' (docs/product-rules.md, Results and history). */
export function Notice({ level = 2, title, text, link }: NoticeProps) {
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <section className="mx-auto mt-10 max-w-md rounded-3xl bg-white px-6 py-10 text-center shadow-sm ring-1 ring-slate-200">
      <Heading className="text-xl font-semibold text-slate-900">{title}</Heading>
      <p className="mt-2 text-sm text-slate-600">{text}</p>
      <Link to={link.to} className={`${buttonClasses('primary')} mt-6`}>
        {link.label}
      </Link>
    </section>
  );
}
