/** The id of the signed-in layouts' <main>, where the header's skip link goes. */
export const MAIN_ID = "main";
