"use client";

import { useEffect, useId, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import { usePathname } from "@/i18n/navigation";
import { IconChevronDown, IconClose, IconMenu } from "./icons";

const noSubscription = () => () => {};

/**
 * A navigation that folds behind a button on narrow screens (the main menu below 1024 px, a section's
 * below 760 px; see `.nav-menu` and `.section-nav` in globals.css) and is always open on wide ones. The button says whether it is open (aria-expanded);
 * Escape closes it and returns focus to the button, as does following a link (a new pathname) or a
 * click outside.
 */
export function Disclosure({
  label,
  buttonText,
  variant,
  className,
  children,
}: {
  /** The button's accessible name ("Menu", "Administration sections"). */
  label: string;
  /** What the button shows: nothing but the icon for the main menu, the current section for a sub-menu. */
  buttonText?: ReactNode;
  variant: "menu" | "section";
  className?: string;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  // True once React has attached the button's handler (false in the server's HTML and while hydrating):
  // `data-ready` lets a browser test wait for a button that answers a click.
  const ready = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const id = useId();
  const pathname = usePathname();
  const button = useRef<HTMLButtonElement>(null);
  const root = useRef<HTMLDivElement>(null);

  // A followed link closes the menu.
  const [seenPath, setSeenPath] = useState(pathname);
  if (seenPath !== pathname) {
    setSeenPath(pathname);
    setOpen(false);
  }
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    const onClick = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("click", onClick);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("click", onClick);
    };
  }, [open]);

  return (
    <div
      ref={root}
      className={`disclosure disclosure-${variant}${className ? ` ${className}` : ""}`}
      data-open={open ? "true" : "false"}
      data-ready={ready ? "true" : "false"}
    >
      <button
        ref={button}
        type="button"
        className="disclosure-button"
        aria-expanded={open}
        aria-controls={id}
        aria-label={variant === "menu" ? label : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        {variant === "menu" ? (
          open ? (
            <IconClose size={22} />
          ) : (
            <IconMenu size={22} />
          )
        ) : (
          <>
            <span className="visually-hidden">{label}: </span>
            {buttonText}
            <IconChevronDown size={16} />
          </>
        )}
      </button>
      <div id={id} className="disclosure-panel">
        {children}
      </div>
    </div>
  );
}
