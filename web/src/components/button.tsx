import type { ButtonHTMLAttributes, Ref } from 'react';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';
/** `sm` fits a table row or a toolbar (the admin pages). */
export type ButtonSize = 'sm' | 'md';

const base =
  'inline-flex items-center justify-center gap-2 text-sm font-semibold transition ' +
  'focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-indigo-400/60 ' +
  'disabled:cursor-not-allowed disabled:opacity-100';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-indigo-700 text-white shadow-sm hover:bg-indigo-800 disabled:bg-slate-400 disabled:text-white',
  secondary: 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 disabled:text-slate-500',
  danger: 'bg-rose-700 text-white shadow-sm hover:bg-rose-800 disabled:bg-slate-400',
  ghost: 'text-slate-700 hover:bg-slate-100 disabled:text-slate-400',
};

const sizes: Record<ButtonSize, string> = {
  sm: 'rounded-lg px-3 py-1.5',
  md: 'rounded-xl px-4 py-2.5',
};

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  /** React 19 passes `ref` as a prop (e.g. to move focus to the button). */
  ref?: Ref<HTMLButtonElement>;
  size?: ButtonSize;
}

export function Button({ variant = 'primary', size = 'md', className = '', type = 'button', ...rest }: ButtonProps) {
  return <button type={type} className={`${buttonClasses(variant, size)} ${className}`} {...rest} />;
}

/** Same look for links that act as buttons (e.g. `Go to Home`). */
export function buttonClasses(variant: ButtonVariant = 'primary', size: ButtonSize = 'md'): string {
  return `${base} ${sizes[size]} ${variants[variant]}`;
}
