import { type ClassValue, clsx } from 'clsx';
import { twMerge } from 'tailwind-merge';

/** Joins class names; a later Tailwind class overrides an earlier one of the same kind. */
export const cn = (...values: ClassValue[]) => twMerge(clsx(values));
