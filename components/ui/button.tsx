import type { ButtonHTMLAttributes } from "react";
import { CONTROL_HEIGHT, CONTROL_HEIGHT_SM } from "@/components/ui/field";

export type ButtonVariant = "primary" | "secondary" | "danger" | "ghost";
export type ButtonSize = "sm" | "md";

const VARIANTS: Record<ButtonVariant, string> = {
  primary: "bg-brand text-white hover:bg-brand/90",
  secondary: "border border-line-strong bg-surface text-fg hover:bg-subtle",
  danger: "bg-danger-solid text-white hover:bg-danger-solid/90",
  ghost: "text-fg-2 hover:bg-muted",
};

/** md is as tall as a text input or select (CONTROL_HEIGHT), sm as a compact inline input, so a button beside one lines up. */
const SIZES: Record<ButtonSize, string> = {
  sm: `${CONTROL_HEIGHT_SM} gap-1.5 px-2.5 text-sm`,
  md: `${CONTROL_HEIGHT} gap-2 px-4 text-sm`,
};

/** The classes of a button, for links (`<Link className={buttonClasses()}>`) that look like one. */
export function buttonClasses(variant: ButtonVariant = "primary", size: ButtonSize = "md", className = ""): string {
  return `inline-flex items-center justify-center rounded-md font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-ink disabled:pointer-events-none disabled:opacity-50 ${VARIANTS[variant]} ${SIZES[size]} ${className}`;
}

export function Button({
  variant = "primary",
  size = "md",
  className = "",
  type = "button",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant; size?: ButtonSize }) {
  return <button type={type} className={buttonClasses(variant, size, className)} {...props} />;
}
