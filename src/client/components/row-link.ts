/**
 * A table row that opens what its link names, wherever it is clicked (issue 37 item 12): the link
 * stays the one real anchor (keyboard, middle-click, "open in new tab") and its ::after is
 * stretched over the row, which is its positioned ancestor. Other controls in such a row sit
 * above the stretched area with ROW_CONTROL.
 */
export const LINKED_ROW = "relative";
export const ROW_LINK = "after:absolute after:inset-0 after:content-['']";
export const ROW_CONTROL = "relative z-10";
