import type { ReactNode } from "react";
import "./globals.css";

// The <html> element is rendered by [locale]/layout.tsx, which knows the language.
export default function RootLayout({ children }: { children: ReactNode }) {
  return children;
}
