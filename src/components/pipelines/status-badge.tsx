// A pipeline run's or stage's status: the one StatusBadge of the design system (src/components/ui).
export { StatusBadge } from "@/components/ui/status-badge";
