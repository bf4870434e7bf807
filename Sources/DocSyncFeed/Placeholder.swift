// PLACEHOLDER: the Feed stage lives here.
